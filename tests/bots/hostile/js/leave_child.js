// Hostile bot: leaves a daemon behind (a new session, stdio closed), whose command line carries
// the marker from marker.txt so the test can look for it; then plays legal moves.
"use strict";
const fs = require("fs");
const { spawn } = require("child_process");
const play = require("./play.js");

const marker = fs.readFileSync("marker.txt", "utf8").trim();
const daemon = spawn("/bin/sh", ["-c", "sleep 3600; :", marker], { detached: true, stdio: "ignore" });
daemon.unref();
daemon.on("spawn", () => console.error(`CHILD daemon started with marker ${marker}`));
play();
