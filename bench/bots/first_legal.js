// Benchmark bot (protocol v1), node runtime: always answers the first legal action.
"use strict";
const lines = require("readline").createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") {
    process.stdout.write(JSON.stringify({ action: message.legal_actions[0] }) + "\n");
  } else if (message.type === "result") {
    process.exit(0);
  }
});
