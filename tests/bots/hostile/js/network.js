// Hostile bot: tries the network (Redis on the host's loopback, a public address, DNS), reports
// each attempt on stderr, then plays legal moves. Inside the sandbox every attempt fails.
"use strict";
const dns = require("dns");
const net = require("net");
const play = require("./play.js");

function attempt(name, start) {
  return new Promise((resolve) => {
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      console.error(`NETWORK ${name}: ${error ? `failed (${error.code || error.message})` : "CONNECTED"}`);
      resolve();
    };
    start(finish);
  });
}

const tcp = (host, port) => (finish) => {
  const socket = net.connect({ host, port });
  socket.setTimeout(1000, () => { socket.destroy(); finish(new Error("timed out")); });
  socket.on("connect", () => { socket.destroy(); finish(null); });
  socket.on("error", finish);
};

(async () => {
  await attempt("redis", tcp("127.0.0.1", 6379));
  await attempt("public", tcp("1.1.1.1", 53));
  await attempt("dns", (finish) => dns.lookup("example.com", (error) => finish(error)));
  play();
})();
