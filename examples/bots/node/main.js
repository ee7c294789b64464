// Starter bot of the node runtime (docs/protocol.md, "Runtimes"): Node.js with its built-in
// modules, named by the arena.json beside this file.
//
// It reads one JSON message per line on stdin; each `act` carries the legal actions, and it
// answers one of them, picked at random, as one line {"action": ...} on stdout. Logs go to
// stderr (console.error).
//
//     .venv/bin/python manage.py botcheck examples/bots/node --game imperial-twing
"use strict";
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    console.error(`playing ${message.game} as seat ${message.seat} of ${message.players} ` +
                  `on ${message.runtime.name} ${message.runtime.version}`);
  } else if (message.type === "act") {
    const legal = message.legal_actions;
    const action = legal[Math.floor(Math.random() * legal.length)];
    process.stdout.write(JSON.stringify({ action }) + "\n");
  } else if (message.type === "result") {
    console.error("result:", JSON.stringify(message.result));
    process.exit(0);
  }
  // Other message types may come in later versions of the protocol: ignore them.
});
