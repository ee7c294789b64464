// The hostile JavaScript bots' protocol loop (a helper, not a bot): answers every act with a
// random legal action (or what `answer` makes of it), exits at the result.
"use strict";
const readline = require("readline");

module.exports = function play(onAct, answer) {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    const message = JSON.parse(line);
    if (message.type === "act") {
      if (onAct && onAct(message) === false) return;
      const legal = message.legal_actions;
      const action = legal[Math.floor(Math.random() * legal.length)];
      process.stdout.write(JSON.stringify(answer ? answer(action) : { action }) + "\n");
    } else if (message.type === "result") {
      process.exit(0);
    }
  });
};
