// Hostile bot: tries to read each host path of target.txt (another bot's secret, the service's
// settings) directly, through /proc/1/root, by walking up from its own directory and through
// /proc/self/root; writes whatever it read to stderr and into its answers. Then plays legal moves.
"use strict";
const fs = require("fs");
const play = require("./play.js");

const leaked = [];
for (const target of fs.readFileSync("target.txt", "utf8").trim().split("\n")) {
  for (const path of [target, "/proc/1/root" + target, "../.." + target, "/proc/self/root" + target]) {
    try {
      leaked.push(fs.readFileSync(path, "utf8"));
      console.error(`READ ${path}: READ ${JSON.stringify(leaked[leaked.length - 1])}`);
    } catch (error) {
      console.error(`READ ${path}: failed (${error.code})`);
    }
  }
}
play(null, (action) => (leaked.length ? { action, leak: leaked } : { action }));
