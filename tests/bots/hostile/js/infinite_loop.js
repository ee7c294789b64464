// Hostile bot: spins the CPU forever at its first move.
"use strict";
const play = require("./play.js");

play(() => { for (;;) { /* spin */ } });
