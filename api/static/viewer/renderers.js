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

  /* -- Imperial Twing: seats with retinues and objects, the piles, the fight on the table ---- */
  var TW = {W: 900, SW: 30, SH: 42, GAP: 4, PAD: 10};
  var ELEMENT_FILL = {fire: "#d64545", water: "#2f6fd8", life: "#2e9e5b", air: "#e6eaf0"};
  var KIND_MARK = {spell: "SP", creature: "CR", mount: "MT", cat: "CAT", trap: "TRAP"};
  var DIE_MARK = {sun: "☀", cross: "✕", spiral: "@"};
  var PHASE_TEXT = {action: "chooses an action", commit: "lays cards", support: "may support a side",
                    respond: "may respond or pass", take: "takes an object", give: "gives away",
                    limit: "discards (hand limit)", direction: "chooses the direction",
                    character: "chooses a character"};
  /* Texts for tooltips only (the view names events and objects by id; content.py has the rest). */
  var TWING_OBJECTS = {teddy: "one extra creature of any colour", pants: "your cross counts 0",
                       hat: "re-roll once when defending", clover: "re-roll once when attacking",
                       doll: "events you draw spare you", boots: "no traps against you",
                       bra: "opponents' sun counts 0 against you", socks: "no cats against you",
                       cup: "no mounted creatures against you"};

  function twCard(id) {
    var m = /^(SP|CR|MT)-([a-z]+)-(\d+)(?:-(.+)|([a-z]))?$/.exec(id || "");
    if (m) {
      return {id: id, kind: {SP: "spell", CR: "creature", MT: "mount"}[m[1]], element: m[2],
              power: parseInt(m[3], 10), name: m[4] || m[5] || ""};
    }
    var parts = (id || "?").split("-"), code = parts.shift(), rest = parts.join("-");
    var kind = {CAT: "cat", TRAP: "trap", OBJ: "object", EV: "event"}[code] || "unknown";
    return {id: id, kind: kind, element: kind === "cat" && rest === "miromon" ? "air" : null,
            power: 0, name: rest};
  }
  function twShort(id) { var c = twCard(id); return c.kind === "object" || c.kind === "event" ? c.name : id; }
  function dieText(die) {
    if (die === null || die === undefined) return "–";
    if (typeof die === "number") return die > 0 ? "+" + die : String(die);
    return DIE_MARK[die] || String(die);
  }
  function plural(k, word) { return k + " " + word + (k === 1 ? "" : "s"); }
  function fit(text, chars) { text = String(text); return text.length > chars ? text.slice(0, chars - 1) + "…" : text; }

  /* One play card, face up: kind, power and name; its id as the tooltip (and data-card). */
  function twCardFace(parent, x, y, id, cls) {
    var c = twCard(id);
    var cls2 = "tcard kind-" + c.kind + (c.element ? " el-" + c.element : "") + (cls ? " " + cls : "");
    var g = el(parent, "g", {"class": cls2, "data-card": id});
    el(g, "title", {}, id);
    el(g, "rect", {x: x, y: y, width: TW.SW, height: TW.SH, rx: 4});
    el(g, "text", {x: x + TW.SW / 2, y: y + 10, "class": "tc-kind"}, KIND_MARK[c.kind] || c.kind);
    if (c.kind === "spell" || c.kind === "creature" || c.kind === "mount") {
      el(g, "text", {x: x + TW.SW / 2, y: y + 28, "class": "tc-power"}, String(c.power));
      el(g, "text", {x: x + TW.SW / 2, y: y + TW.SH - 4, "class": "tc-name"}, fit(c.name, 6));
    } else {
      el(g, "text", {x: x + TW.SW / 2, y: y + 28, "class": "tc-power small"},
         c.name === "miromon" ? "Miro" : fit(c.name, 4));
    }
    return g;
  }
  function twCardBack(parent, x, y, w, h) {
    el(parent, "rect", {x: x, y: y, width: w, height: h, rx: 3, "class": "tback"});
  }
  /* Cards in rows of ``per``; returns the height used. */
  function twCardRows(parent, x, y, ids, per, cls) {
    ids.forEach(function (id, k) {
      twCardFace(parent, x + (k % per) * (TW.SW + TW.GAP), y + Math.floor(k / per) * (TW.SH + TW.GAP), id, cls);
    });
    return Math.max(1, Math.ceil(ids.length / per)) * (TW.SH + TW.GAP);
  }
  function twObject(parent, x, y, id, cls) {
    var c = twCard(id), w = 70;
    var g = el(parent, "g", {"class": "tobject " + (cls || ""), "data-object": id});
    el(g, "title", {}, id + (TWING_OBJECTS[c.name] ? ": " + TWING_OBJECTS[c.name] : ""));
    el(g, "rect", {x: x, y: y, width: w, height: 18, rx: 9});
    el(g, "text", {x: x + w / 2, y: y + 13}, fit(c.name, 11));
    return w + 4;
  }
  function twDie(parent, x, y, die, cls) {
    var none = die === null || die === undefined;
    var face = none ? " none" : " face-" + (typeof die === "number" ? "num" : die);
    var g = el(parent, "g", {"class": "tdie" + face + (cls ? " " + cls : "")});
    el(g, "title", {}, "die: " + (none ? "not rolled" : die));
    el(g, "rect", {x: x, y: y, width: 28, height: 28, rx: 5});
    el(g, "text", {x: x + 14, y: y + 19}, dieText(die));
    return g;
  }
  function twPower(ids) {
    return ids.reduce(function (sum, id) { return sum + (id ? twCard(id).power : 0); }, 0);
  }

  /* One seat: its character, ornicles, hand, retinue and objects. Returns the height. */
  function twSeatHeight(view, hand, seat, per) {
    var retinue = (view.retinues || [])[seat] || [];
    var handRows = hand ? Math.max(1, Math.ceil(hand.length / per)) : 0;
    return 30 + Math.max(1, Math.ceil(retinue.length / per)) * (TW.SH + TW.GAP) + 26 +
      (hand ? handRows * (TW.SH + TW.GAP) : 30) + 6;
  }
  function twSeat(parent, view, ctx, seat, box, hand, acting) {
    var element = view.characters[seat], gone = null, dark = element === "air" || !element ? " dark" : "";
    (view.left || []).forEach(function (l) { if (l.seat === seat) gone = l; });
    var cls = "tseat" + (gone ? " gone" : "") + (acting ? " acting" : "") + (view.seat_to_play === seat ? " to-play" : "");
    var g = el(parent, "g", {"class": cls, "data-seat": seat});
    var frame = el(g, "rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, "class": "tseat-box"});
    if (element) frame.setAttribute("class", "tseat-box el-" + element);
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: 24, rx: 8,
                   fill: element ? ELEMENT_FILL[element] : "#c9ced9", "class": "tseat-head"});
    el(g, "circle", {cx: box.x + 13, cy: box.y + 12, r: 7, fill: "#fff"});
    el(g, "circle", {cx: box.x + 13, cy: box.y + 12, r: 5, fill: colour(seat), "class": "seat-dot"});
    var head = (acting ? "▶ " : "") + fit(seatName(ctx, seat), 22) + " · " + (element || "no character yet");
    el(g, "text", {x: box.x + 24, y: box.y + 17, "class": "tseat-name" + dark}, head);
    var right = gone ? "left: " + gone.how + ", turn " + gone.turn : "◆ " + plural(view.ornicles[seat], "ornicle");
    var rx = box.x + box.w - 8;
    el(g, "text", {x: rx, y: box.y + 17, "class": "tseat-name end" + dark}, right);
    rx -= right.length * 7 + 8;
    if ((view.in_endgame || [])[seat]) {
      el(g, "rect", {x: rx - 66, y: box.y + 4, width: 66, height: 16, rx: 8, "class": "badge endgame"});
      el(g, "text", {x: rx - 33, y: box.y + 16, "class": "badge-text"}, "ENDGAME");
    }
    var x0 = box.x + 58, y = box.y + 30;
    el(g, "text", {x: box.x + 8, y: y + 14, "class": "row-label"}, "retinue");
    var retinue = (view.retinues || [])[seat] || [];
    if (!retinue.length) el(g, "text", {x: x0, y: y + 24, "class": "empty"}, "no creatures");
    y += twCardRows(g, x0, y, retinue, box.per, "retinue");
    el(g, "text", {x: box.x + 8, y: y + 14, "class": "row-label"}, "objects");
    var ox = x0;
    ((view.active_objects || [])[seat] || []).forEach(function (o) { ox += twObject(g, ox, y + 1, o, "active"); });
    var aside = (view.aside_objects || [])[seat] || [];
    if (aside.length) {
      el(g, "text", {x: ox + 2, y: y + 14, "class": "row-label"}, "aside:");
      ox += 38;
      aside.forEach(function (o) { ox += twObject(g, ox, y + 1, o, "aside"); });
    }
    if (ox === x0) el(g, "text", {x: x0, y: y + 14, "class": "empty"}, "none");
    y += 26;
    var count = view.hand_sizes[seat];
    el(g, "text", {x: box.x + 8, y: y + 14, "class": "row-label"}, "hand");
    el(g, "text", {x: box.x + 8, y: y + 27, "class": "row-value"}, count + (count === 1 ? " card" : " cards"));
    if (hand) {
      if (!hand.length) el(g, "text", {x: x0, y: y + 24, "class": "empty"}, "empty");
      twCardRows(g, x0, y, hand, box.per, "hand");
      g.setAttribute("class", cls + " hand-shown");
    } else {
      var backs = el(g, "g", {"class": "backs", "data-count": count});
      for (var k = 0; k < Math.min(count, 20); k++) twCardBack(backs, x0 + k * 9, y + 3, 16, 22);
      if (count) {
        el(g, "text", {x: x0 + Math.min(count, 20) * 9 + 12, y: y + 19, "class": "row-value"}, "× " + count + " (hidden)");
      } else {
        el(g, "text", {x: x0, y: y + 18, "class": "empty"}, "empty");
      }
    }
    return g;
  }

  /* A fight's sides, the attacker on top and each defender below it; a running fight or the
   * last one (whose sides are keyed by seat and which carries the outcomes). Returns the height. */
  function twFight(parent, view, ctx, fight, box, last) {
    var g = el(parent, "g", {"class": "tfight" + (last ? " last" : " live"), "data-kind": fight.kind});
    var sides = fight.sides, outcomes = {}, x = box.x, w = box.w, top = box.y;
    if (!Array.isArray(sides)) {
      sides = [fight.attacker].concat(fight.defenders).map(function (s) {
        return Object.assign({seat: s}, fight.sides[String(s)] || {});
      });
    }
    (fight.outcomes || []).forEach(function (o) { outcomes[o.defender] = o; });
    var acting = last ? [] : view.to_act || [];
    var what = fight.kind === "duel" ? "duel, fight " + fight.number : fight.kind === "endgame" ? "endgame attack" : "attack";
    el(g, "text", {x: x, y: top + 14, "class": "tfight-title"}, (last ? "last fight: " : "fight: ") + what);
    var status = [];
    if (!last) {
      status.push("step: " + fight.step);
      if (acting.length && PHASE_TEXT[view.phase]) status.push("▶ " + seatName(ctx, acting[0]) + " " + PHASE_TEXT[view.phase]);
      else if (view.phase === "roll") status.push("the dice are rolled");
      else if (view.phase === "reroll") status.push("a die is re-rolled");
    }
    if (view.duel && !last) status.push("duel: attacker " + view.duel.wins + " won, " + view.duel.losses + " lost");
    if (fight.quake) status.push("earthquake: a tie");
    var y = top + 22;
    if (status.length) {
      el(g, "text", {x: x, y: top + 30, "class": "tfight-status"}, fit(status.join(" · "), Math.floor(w / 5.6)));
      y += 16;
    }
    var per = Math.max(1, Math.floor((w - 56) / (TW.SW + TW.GAP)));
    // Cards laid since the step before are marked (the same fight, one step earlier).
    var before = !last && ctx.previous && ctx.previous.fight, seenBefore = {};
    if (before && before.kind === fight.kind && before.number === fight.number && before.attacker === fight.attacker) {
      (before.sides || []).forEach(function (side) {
        (side.spells || []).forEach(function (c) { seenBefore[c] = true; });
        (side.units || []).forEach(function (u) { seenBefore[u.card] = true; if (u.rider) seenBefore[u.rider] = true; });
      });
      (before.supporters || []).forEach(function (sup) { seenBefore[sup.card] = true; });
    }
    sides.forEach(function (side, i) {
      var seat = side.seat, isAttacker = seat === fight.attacker, turn = acting.indexOf(seat) >= 0;
      var support = (fight.supporters || []).filter(function (s) { return s.side === seat; });
      var laid = [];
      (side.spells || []).forEach(function (id) { laid.push([id, "spell"]); });
      (side.units || []).forEach(function (u) {
        laid.push([u.card, u.extra ? "extra" : "unit"]);
        if (u.rider) laid.push([u.rider, "rider"]);
      });
      support.forEach(function (s) { laid.push([s.card, "support", s.seat]); });
      var rows = Math.max(1, Math.ceil(laid.length / per)), h = 40 + rows * (TW.SH + TW.GAP);
      var sideCls = "tside" + (isAttacker ? " attacker" : " defender") + (turn ? " acting" : "");
      var sg = el(g, "g", {"class": sideCls, "data-seat": seat});
      var rect = el(sg, "rect", {x: x, y: y, width: w, height: h, rx: 6, "class": "tside-box"});
      if (side.colour) rect.setAttribute("class", "tside-box el-" + side.colour);
      el(sg, "circle", {cx: x + 11, cy: y + 12, r: 5, fill: colour(seat), "class": "seat-dot"});
      var role = (isAttacker ? "attacker" : "defender") + " · " +
        (side.mode ? side.mode + (side.colour ? " of " + side.colour : "") : side.done ? "laid nothing" : "nothing laid yet");
      el(sg, "text", {x: x + 20, y: y + 16, "class": "tside-name"}, fit((turn ? "▶ " : "") + seatName(ctx, seat), 26));
      el(sg, "text", {x: x + 20, y: y + 30, "class": "tside-role"}, role);
      twDie(sg, x + w - 36, y + 6, side.die, side.rerolled ? "rerolled" : "");
      if (side.rerolled) el(sg, "text", {x: x + w - 46, y: y + 16, "class": "tside-role end"}, "re-rolled");
      laid.forEach(function (pair, k) {
        var px = x + 8 + (k % per) * (TW.SW + TW.GAP), py = y + 36 + Math.floor(k / per) * (TW.SH + TW.GAP);
        var fresh = before && !seenBefore[pair[0]] ? " new" : "";
        var card = twCardFace(sg, px, py, pair[0], "laid " + pair[1] + fresh);
        if (pair[1] === "rider") el(card, "text", {x: px - 2, y: py + 25, "class": "rider-mark"}, "+");
        if (pair[1] === "extra") el(card, "text", {x: px + TW.SW - 4, y: py + 9, "class": "extra-mark"}, "T");
        if (pair[1] === "support") {  // a supporter's card: dashed, with the supporter's colour
          el(card, "circle", {cx: px + TW.SW - 3, cy: py + 3, r: 4.5, fill: colour(pair[2]), "class": "seat-dot"});
        }
      });
      if (!laid.length) el(sg, "text", {x: x + 8, y: y + 58, "class": "empty"}, "no cards");
      var power = twPower(laid.map(function (p) { return p[0]; }));
      var sums = "cards " + power + (side.bonus ? ", bonus " + (side.bonus > 0 ? "+" : "") + side.bonus : "") +
        (support.length ? ", " + support.length + " from supporters" : "");
      el(sg, "text", {x: x + w - 46, y: y + 30, "class": "tside-sum end"}, sums);
      if (last) {
        var verdicts = isAttacker ? fight.outcomes || [] : outcomes[seat] ? [outcomes[seat]] : [];
        var won = false;
        var line = verdicts.map(function (o) {
          var mine = isAttacker ? o.winner === "attacker" : o.winner === "defender";
          won = won || mine;
          var score = isAttacker ? o.attacker_total + " : " + o.defender_total : o.defender_total + " : " + o.attacker_total;
          return (o.winner === "tie" ? "tie " : mine ? "won " : "lost ") + score +
            (isAttacker && verdicts.length > 1 ? " vs " + o.defender : "");
        }).join(", ");
        if (line) el(sg, "text", {x: x + w - 8, y: y + h - 8, "class": "tside-verdict end" + (won ? " won" : "")}, line);
      }
      y += h;
      if (i === 0 && sides.length > 1) {
        el(g, "text", {x: x + w / 2, y: y + 14, "class": "vs"}, "vs");
        y += 20;
      } else {
        y += 6;
      }
    });
    var notes = (fight.supporters || []).map(function (sup) {
      return seatName(ctx, sup.seat) + " supports " + seatName(ctx, sup.side) + " with " + sup.card + " (1 ornicle staked)";
    }).concat((fight.events || []).map(function (e) { return seatName(ctx, e[0]) + " drew the event " + twShort(e[1]); }));
    notes.forEach(function (note) {
      el(g, "text", {x: x, y: y + 12, "class": "tfight-note"}, note);
      y += 15;
    });
    return y - top;
  }

  renderers["imperial-twing"] = function (svg, view, ctx) {
    var full = view.full_state || null, over = view.phase === "over";
    var me = typeof view.seat === "number" ? view.seat : null;
    var n = view.players, acting = view.to_act || [];
    svg.setAttribute("class", "board twing");
    var hands = {};
    if (full) full.hands.forEach(function (h, s) { hands[s] = h; });
    else if (over && view.hands) view.hands.forEach(function (h, s) { hands[s] = h; });
    if (me !== null && view.hand) hands[me] = view.hand;
    // Title: where the game stands and whose perspective this is.
    var who = acting.length ? seatName(ctx, acting[0]) + " " + (PHASE_TEXT[view.phase] || "acts") : "";
    var bound = view.result && view.result.by === "bound";
    var title = over ? "match over: " + (bound ? "turn limit reached" : "decided by the rules") :
      "turn " + view.turn + " · " + view.phase + (who ? " · " + who : "");
    el(svg, "text", {x: TW.PAD, y: 18, "class": "title"}, title);
    el(svg, "text", {x: TW.W - TW.PAD, y: 18, "class": "title perspective"},
       me !== null ? "as " + seatName(ctx, me) : full ? "full state" : "public view");
    var colW = (TW.W - 3 * TW.PAD) / 2, left = TW.PAD, right = 2 * TW.PAD + colW, top = 28;
    // Left: the seats.
    var per = Math.floor((colW - 66) / (TW.SW + TW.GAP)), y = top;
    for (var s = 0; s < n; s++) {
      var h = twSeatHeight(view, hands[s], s, per);
      twSeat(svg, view, ctx, s, {x: left, y: y, w: colW, h: h, per: per}, hands[s], acting.indexOf(s) >= 0);
      y += h + 8;
    }
    var bottom = y;
    // Right: the piles, the objects for sale, the events and the ornicle supply.
    var centre = el(svg, "g", {"class": "tcentre"}), cx = right + 10, cy = top + 6;
    var centreBox = el(centre, "rect", {x: right, y: top, width: colW, height: 108, rx: 8, "class": "tcentre-box"});
    twCardBack(centre, cx, cy + 4, TW.SW, TW.SH);
    el(centre, "text", {x: cx + 38, y: cy + 16, "class": "row-label"}, "deck");
    el(centre, "text", {x: cx + 38, y: cy + 36, "class": "row-value big"}, String(view.deck_size));
    var discard = view.discard || [];
    cx += 100;
    if (discard.length) twCardFace(centre, cx, cy + 4, discard[discard.length - 1], "discard-top");
    else el(centre, "rect", {x: cx, y: cy + 4, width: TW.SW, height: TW.SH, rx: 4, "class": "tslot"});
    el(centre, "text", {x: cx + 38, y: cy + 16, "class": "row-label"}, "discard");
    el(centre, "text", {x: cx + 38, y: cy + 36, "class": "row-value big"}, String(discard.length));
    cx += 110;
    el(centre, "text", {x: cx, y: cy + 16, "class": "row-label"}, "ornicle supply");
    el(centre, "text", {x: cx, y: cy + 38, "class": "row-value big supply"}, "◆ " + view.supply);
    cx = right + 10;
    el(centre, "text", {x: cx, y: cy + 68, "class": "row-label"}, "objects for sale (" + view.object_deck_size + " in the deck)");
    var ox = cx;
    (view.object_row || []).forEach(function (o) { ox += twObject(centre, ox, cy + 74, o, "row"); });
    if (!(view.object_row || []).length) el(centre, "text", {x: cx, y: cy + 86, "class": "empty"}, "none");
    var drawn = view.events_drawn || [], lastEvent = drawn.length ? drawn[drawn.length - 1] : null;
    cx = right + 220;
    el(centre, "text", {x: cx, y: cy + 68, "class": "row-label"}, "events (" + view.event_deck_size + " in the deck)");
    var ev = el(centre, "g", {"class": "tevent"});
    el(ev, "rect", {x: cx, y: cy + 74, width: 150, height: 20, rx: 4});
    el(ev, "text", {x: cx + 75, y: cy + 88}, lastEvent ? "last drawn: " + twShort(lastEvent) : "none drawn yet");
    if (lastEvent) el(ev, "title", {}, lastEvent);
    var extra = [];
    if (view.removed_objects && view.removed_objects.length) {
      extra.push("out of the game: " + view.removed_objects.map(twShort).join(", "));
    }
    if (view.start_rolls && view.start_rolls.length && !view.turn) {
      extra.push("start rolls: " + view.start_rolls.map(function (r) {
        return r.map(function (p) { return "seat " + p[0] + " " + dieText(p[1]); }).join(", ");
      }).join(" / "));
    }
    y = top + 116;
    if (extra.length) {
      centreBox.setAttribute("height", 128);
      el(centre, "text", {x: right + 10, y: cy + 114, "class": "row-label"}, fit(extra.join(" · "), Math.floor(colW / 5.2)));
      y += 20;
    }
    // Right, below: the fight in progress, else the last one; the result at the end.
    if (over && view.result) {
      var res = el(svg, "g", {"class": "tresult"});
      el(res, "rect", {x: right, y: y, width: colW, height: 24 + 16 * n, rx: 8});
      el(res, "text", {x: right + 10, y: y + 17, "class": "tresult-title"}, "result (" + (bound ? "turn limit" : "rules") + ")");
      view.result.scores.forEach(function (score, s) {
        el(res, "circle", {cx: right + 16, cy: y + 30 + 16 * s, r: 5, fill: colour(s), "class": "seat-dot"});
        el(res, "text", {x: right + 26, y: y + 34 + 16 * s}, seatName(ctx, s) + ": " + score + " points");
      });
      y += 32 + 16 * n;
    }
    if (view.fight) y += twFight(svg, view, ctx, view.fight, {x: right, y: y, w: colW}, false);
    else if (view.last_fight) y += twFight(svg, view, ctx, view.last_fight, {x: right, y: y, w: colW}, true);
    else el(svg, "text", {x: right, y: y + 14, "class": "empty"}, "no fight yet");
    svg.setAttribute("viewBox", "0 0 " + TW.W + " " + Math.max(bottom, y + 4, 300));
    // Info rows.
    var actors = acting.map(function (a) { return seatName(ctx, a); }).join(", ");
    var rows = [["phase", view.phase + (acting.length ? " (" + actors + " to act)" : "")],
                ["turn", view.turn + (view.options ? " of at most " + view.options.turn_limit : "")],
                ["seat to play", typeof view.seat_to_play === "number" ? seatName(ctx, view.seat_to_play) : "—"],
                ["direction", view.direction]];
    for (s = 0; s < n; s++) {
      var owned = ((view.active_objects || [])[s] || []).concat((view.aside_objects || [])[s] || []).map(twShort);
      var gone = (view.left || []).filter(function (l) { return l.seat === s; })[0];
      rows.push([seatName(ctx, s), (view.characters[s] || "no character") + ", " + plural(view.ornicles[s], "ornicle") + ", " +
                 view.hand_sizes[s] + " in hand, " + ((view.retinues || [])[s] || []).length + " in retinue, objects: " +
                 (owned.length ? owned.join(" ") : "none") + ((view.in_endgame || [])[s] ? ", in the endgame" : "") +
                 (gone ? ", left (" + gone.how + ", turn " + gone.turn + ")" : "") +
                 (view.result ? ", score " + view.result.scores[s] : "")]);
    }
    if (view.duel) rows.push(["duel", seatName(ctx, view.duel.attacker) + " vs " + seatName(ctx, view.duel.defender) + ": " +
                              view.duel.wins + " won, " + view.duel.losses + " lost"]);
    if (typeof view.taking_from === "number") rows.push(["taking an object from", seatName(ctx, view.taking_from)]);
    if (typeof view.giving === "number") rows.push(["giving away", seatName(ctx, view.giving)]);
    if (view.result) rows.push(["result", "by " + view.result.by + ", scores " + view.result.scores.join(", ")]);
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
