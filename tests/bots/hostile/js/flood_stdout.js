// Hostile bot: floods stdout (no newline, without end) at its first move.
"use strict";
const play = require("./play.js");

play(() => {
  const chunk = "A".repeat(65536);
  for (;;) process.stdout.write(chunk);
});
