// Hostile bot: tries to write outside /tmp (its own code, /etc, the root, /usr, /proc, /dev and a
// host path named in target.txt) and inside /tmp, reports each attempt on stderr, then plays
// legal moves. Only the /tmp write may succeed.
"use strict";
const fs = require("fs");
const play = require("./play.js");

const hostPath = fs.readFileSync("target.txt", "utf8").trim().split("\n")[0];
for (const path of ["/bot/pwned", "/etc/pwned", "/pwned", "/usr/pwned", "/proc/pwned", "/dev/pwned",
                    "/dev/shm/pwned", hostPath, "/tmp/ok"]) {
  try {
    fs.writeFileSync(path, "pwned");
    console.error(`WRITE ${path}: WROTE`);
  } catch (error) {
    console.error(`WRITE ${path}: failed (${error.code})`);
  }
}
play();
