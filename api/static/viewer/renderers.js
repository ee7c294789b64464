/* Board renderers, one per ruleset: renderers[name](svg, view, ctx) draws ``view`` into the
 * empty <svg> and returns rows [label, value] for the info panel. ctx: {frame, previous (the
 * view one step earlier or null), seats (labels), perspective, result}. A renderer only reads
 * the view it is given: what a perspective may not know never reaches the page. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var COLOURS = ["#d64545", "#2f7fd8", "#2e9e5b", "#e0a526", "#8e57c9", "#17a2a8"];
  var renderers = {};

  function el(parent, tag, attrs, text) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  function colour(seat) { return COLOURS[seat % COLOURS.length]; }
  function seatName(ctx, seat) { return (ctx.seats && ctx.seats[seat]) || ("seat " + seat); }

  /* -- Trap the Wizard: the wheel, its fields, wizards in stacks, the joker ------------------ */
  renderers["trap-the-wizard"] = function (svg, view, ctx) {
    var st = view.state, board = view.board, per = st.options.wizards, joker = view.joker;
    var before = ctx.previous && ctx.previous.state;
    svg.setAttribute("viewBox", "-125 -135 250 300");
    svg.setAttribute("class", "board ttw");
    var coords = {};
    board.fields.forEach(function (f) { coords[f.id] = f; });
    var edges = el(svg, "g", {"class": "edges"});
    board.fields.forEach(function (f) {
      f.neighbours.forEach(function (n) {
        if (n > f.id) el(edges, "line", {x1: f.x, y1: f.y, x2: coords[n].x, y2: coords[n].y});
      });
    });
    var fields = el(svg, "g", {"class": "fields"});
    board.fields.forEach(function (f) {
      var r = f.kind === "centre" ? 8 : f.kind === "start" ? 7 : 5;
      var attrs = {cx: f.x, cy: f.y, r: r, "class": "field " + f.kind, "data-field": f.id};
      if (f.kind === "start" && f.seat !== null) { attrs.stroke = colour(f.seat); attrs["stroke-width"] = 2.5; }
      el(fields, "circle", attrs);
    });
    // Pieces by field: wizards of a stack side by side, the joker as a diamond.
    var stacks = {};
    st.fields.forEach(function (field, piece) {
      if (field === null) return;
      (stacks[field] = stacks[field] || []).push(piece);
    });
    var pieces = el(svg, "g", {"class": "pieces"});
    Object.keys(stacks).forEach(function (field) {
      var f = coords[field], group = stacks[field];
      group.forEach(function (piece, i) {
        var dx = (i - (group.length - 1) / 2) * 6.5, x = f.x + dx, y = f.y;
        var moved = before && before.fields[piece] !== st.fields[piece];
        if (piece === joker) {
          el(pieces, "path", {d: "M" + x + "," + (y - 6) + " l5,6 l-5,6 l-5,-6 z", "class": "joker" + (moved ? " moved" : ""),
                              "data-piece": piece});
          return;
        }
        var seat = Math.floor(piece / per);
        el(pieces, "circle", {cx: x, cy: y, r: 4.6, fill: colour(seat), "class": "wizard" + (moved ? " moved" : ""),
                              "data-piece": piece, "data-seat": seat});
        var held = st.captives[piece].length;
        if (held) {
          el(pieces, "circle", {cx: x + 4, cy: y - 4.5, r: 3.2, "class": "badge"});
          el(pieces, "text", {x: x + 4, y: y - 3.3, "class": "badge-text"}, String(held));
        }
      });
    });
    // Legend: the seats, their colours and match points.
    var legend = el(svg, "g", {"class": "legend"});
    var title = st.ended ? "match over" : "round " + st.round + " · " + (st.roll === null ?
      "seat " + st.turn + " rolls" : "seat " + st.turn + " moves " + st.remaining + " of " + st.roll);
    el(legend, "text", {x: -120, y: -122, "class": "title"}, title);
    for (var s = 0; s < st.players; s++) {
      var y = 118 + s * 10;
      el(legend, "circle", {cx: -116, cy: y - 2.5, r: 3.5, fill: colour(s),
                            "class": s === st.turn && !st.ended ? "turn" : ""});
      el(legend, "text", {x: -109, y: y, "class": "legend-text" + (st.forfeited.indexOf(s) >= 0 ? " out" : "")},
         seatName(ctx, s) + " — " + view.scores[s] + " pts" + (st.delivered[s] ? ", " + st.delivered[s] + " delivered" : ""));
    }
    if (st.roll !== null) {
      el(legend, "rect", {x: 98, y: -131, width: 20, height: 20, rx: 4, "class": "die"});
      el(legend, "text", {x: 108, y: -116, "class": "die-text"}, String(st.roll));
    }
    var rows = [["round", st.round + " of " + st.options.rounds], ["rolls this round", st.rolls],
                ["turn", st.ended ? "—" : seatName(ctx, st.turn)],
                ["die", st.roll === null ? "to roll" : st.roll + " (" + st.remaining + " steps left)"]];
    for (s = 0; s < st.players; s++) rows.push([seatName(ctx, s), view.scores[s] + " points"]);
    if (st.history.length) rows.push(["rounds scored", JSON.stringify(st.history)]);
    return rows;
  };

  /* -- Sorcado: the 4x4 realm, border slots, face-down cards, what this perspective knows ----- */
  var CW = 62, CH = 80, GAP = 8, OX = 112, OY = 96;
  function cardLabel(id) {
    if (!id) return ["?"];
    var parts = id.split("-"), code = parts.shift();
    if (code === "MON" || code === "SPL") return parts.join(" ").split(" ");
    return [code, parts.join("-").replace(/[a-h]$/, "")];
  }
  function power(id) { var m = /-(\d+)[a-h]$/.exec(id || ""); return m ? m[1] : "?"; }
  function slotBox(slot) {
    var side = slot[0], i = parseInt(slot.slice(1), 10);
    if (side === "T") return {x: OX + i * (CW + GAP), y: OY - 48, w: CW, h: 40};
    if (side === "B") return {x: OX + i * (CW + GAP), y: OY + 4 * (CH + GAP), w: CW, h: 40};
    if (side === "L") return {x: OX - 92, y: OY + i * (CH + GAP) + 8, w: 84, h: CH - 16};
    return {x: OX + 4 * (CW + GAP), y: OY + i * (CH + GAP) + 8, w: 84, h: CH - 16};
  }
  function chip(parent, x, y, seat, text, cls) {
    el(parent, "rect", {x: x, y: y, width: 18, height: 24, rx: 3, fill: colour(seat), "class": "chip " + (cls || "")});
    if (text) el(parent, "text", {x: x + 9, y: y + 16, "class": "chip-text"}, text);
  }

  renderers.sorcado = function (svg, view, ctx) {
    var full = view.full_state || null;
    var me = typeof view.seat === "number" ? view.seat : null;
    svg.setAttribute("viewBox", "0 0 520 " + (full ? 640 : me !== null ? 600 : 560));
    svg.setAttribute("class", "board sorcado");
    var over = view.phase === "over";
    el(svg, "text", {x: 8, y: 18, "class": "title"},
       "phase: " + view.phase + (view.to_act !== null && view.to_act !== undefined ? " · seat " + view.to_act + " acts" : "") +
       (me !== null ? " · as " + seatName(ctx, me) : full ? " · full state" : " · public"));
    // Realm cards.
    var realm = el(svg, "g", {"class": "realm"});
    for (var p = 0; p < 16; p++) {
      var x = OX + (p % 4) * (CW + GAP), y = OY + Math.floor(p / 4) * (CH + GAP);
      var up = view.face_up[p], knownHere = view.known ? view.known[p] : null;
      var card = full ? full.grid[p] : up || knownHere, cls = "card";
      if (up) cls += " face-up"; else if (card) cls += full ? " revealed" : " known"; else cls += " face-down";
      if (card && card.indexOf("SPL-") === 0) cls += " spell";
      if (p === view.pending) cls += " pending";
      if (view.looked.indexOf(p) >= 0) cls += " looked";
      var captor = view.captures ? view.captures[p] : undefined;
      var g = el(realm, "g", {"class": cls, "data-pos": p});
      var rect = el(g, "rect", {x: x, y: y, width: CW, height: CH, rx: 6});
      if (over && captor !== undefined) {
        if (captor === null) g.setAttribute("class", cls + " discarded");
        else {  // inline style: the stroke of the captor wins over the stylesheet's
          rect.style.stroke = colour(captor);
          rect.style.strokeWidth = "4";
          el(g, "circle", {cx: x + CW - 10, cy: y + CH - 10, r: 6, fill: colour(captor), "class": "captor"});
        }
      }
      if (card) {
        cardLabel(card).forEach(function (line, k) {
          el(g, "text", {x: x + CW / 2, y: y + 26 + k * 14, "class": "card-text"}, line);
        });
      } else {
        el(g, "text", {x: x + CW / 2, y: y + CH / 2 + 6, "class": "card-back"}, "✦");
      }
      el(g, "text", {x: x + 5, y: y + CH - 5, "class": "pos"}, String(p));
      if (view.bans[p] !== null && view.bans[p] !== undefined) {
        el(g, "circle", {cx: x + CW - 11, cy: y + 11, r: 8, fill: colour(view.bans[p]), "class": "ban"});
        el(g, "text", {x: x + CW - 11, y: y + 15, "class": "ban-text"}, "✕");
      }
    }
    // Border slots: who placed there, and the powers this perspective may know.
    var placedBySeat = full ? full.placed : view.placed || null;
    var slots = el(svg, "g", {"class": "slots"});
    Object.keys(view.slots).forEach(function (slot) {
      var b = slotBox(slot), g = el(slots, "g", {"class": "slot", "data-slot": slot});
      el(g, "rect", {x: b.x, y: b.y, width: b.w, height: b.h, rx: 4, "class": "slot-box"});
      el(g, "text", {x: b.x + 3, y: b.y + 10, "class": "slot-name"}, slot);
      var cards = [];
      if (placedBySeat) {
        placedBySeat.forEach(function (list, seat) {
          list.forEach(function (pair) { if (pair[0] === slot) cards.push([seat, power(pair[1])]); });
        });
      } else {
        var mine = (view.my_placed || []).filter(function (pair) { return pair[0] === slot; });
        view.slots[slot].forEach(function (seat) {
          cards.push([seat, seat === me && mine.length ? power(mine.shift()[1]) : ""]);
        });
      }
      cards.forEach(function (c, k) { chip(g, b.x + 20 + k * 22, b.y + b.h - 28, c[0], c[1], c[1] ? "" : "back"); });
    });
    // Hands: one's own in a seat perspective, everyone's in the full one.
    var hands = (full ? full.hands.map(function (h, s) { return [s, h]; }) : me !== null ? [[me, view.hand]] : [])
      .filter(function (entry) { return entry[1].length; });
    var hy = OY + 4 * (CH + GAP) + 58;
    hands.forEach(function (entry, row) {
      var y = hy + row * 32;
      el(svg, "text", {x: 8, y: y + 16, "class": "hand-label"}, "hand " + entry[0]);
      entry[1].forEach(function (cardId, k) { chip(svg, 70 + k * 22, y, entry[0], power(cardId)); });
    });
    var rows = [["phase", view.phase], ["deck", view.deck_size + " cards"]];
    for (var s = 0; s < view.players; s++) {
      rows.push([seatName(ctx, s), (view.factions[s] || "no faction yet") + ", " + view.hand_sizes[s] +
                 " in hand" + (view.scores ? ", " + view.scores[s] + " points" : "") +
                 (view.forfeited.indexOf(s) >= 0 ? " (forfeited)" : "")]);
    }
    if (view.history.length) rows.push(["earlier games", JSON.stringify(view.history)]);
    return rows;
  };

  /* -- any other game: the view as JSON text ---------------------------------------------- */
  renderers.fallback = function (svg, view) {
    var lines = JSON.stringify(view, null, 1).split("\n").slice(0, 80);
    svg.setAttribute("viewBox", "0 0 600 " + (lines.length * 13 + 10));
    svg.setAttribute("class", "board fallback");
    lines.forEach(function (line, i) {
      el(svg, "text", {x: 6, y: 14 + i * 13, "class": "json", "xml:space": "preserve"}, line.slice(0, 90));
    });
    return [];
  };

  window.renderers = renderers;
})();
