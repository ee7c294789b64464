// Hostile bot: allocates far past the memory limit at its first move, 64 MiB buffers filled (so
// overcommit cannot hide them), and reports how much it holds.
"use strict";
const play = require("./play.js");

const hoard = [];
play(() => {
  console.error("MEMORY allocating");
  try {
    for (;;) {
      hoard.push(Buffer.alloc(64 << 20, "x"));
      console.error(`MEMORY holding ${hoard.length * 64} MiB`);
    }
  } catch (error) {
    console.error(`MEMORY refused: ${error}`);
    process.exit(1);
  }
});
