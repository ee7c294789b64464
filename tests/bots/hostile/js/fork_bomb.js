// Hostile bot: a fork bomb at its first move. Node.js cannot fork itself, so it spawns processes
// without end (a sleep, every 5 ms, none ever ending) for a second, counts the spawns the kernel
// refused and the bot's processes, reports on stderr and keeps the move (a timeout). Node spawns
// every process itself and none exits, so the limit is met by its own spawns whatever the load (a
// bomb of shells forking each other freed slots as its shells failed, so Node's spawn was not
// always the one refused: a CI run counted none).
"use strict";
const fs = require("fs");
const { spawn } = require("child_process");
const play = require("./play.js");

function myProcesses() {
  const uid = String(process.getuid());
  let count = 0;
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name) && name !== "1")) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      if (status.split("\n").some((line) => line.startsWith("Uid:") && line.split(/\s+/)[1] === uid)) count++;
    } catch (error) { /* gone */ }
  }
  return count;
}

play(() => {
  let refused = 0;
  const deadline = Date.now() + 1000;
  const bomb = () => {
    if (Date.now() > deadline) {
      console.error(`FORKBOMB refused=${refused} processes=${myProcesses()}`);
      return;
    }
    try {
      const child = spawn("/bin/sleep", ["3600"], { stdio: "ignore" });
      child.on("error", () => { refused++; });
    } catch (error) {
      refused++;
    }
    setTimeout(bomb, 5);
  };
  bomb();
  return false; // never answers
});
