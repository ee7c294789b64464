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
        // The wizards it carries as a number; the joker it carries as a small diamond of its own.
        var held = st.captives[piece].filter(function (c) { return c !== joker; }).length;
        if (held) {
          el(pieces, "circle", {cx: x + 4, cy: y - 4.5, r: 3.2, "class": "badge", "data-held": held});
          el(pieces, "text", {x: x + 4, y: y - 3.3, "class": "badge-text"}, String(held));
        }
        if (st.captives[piece].indexOf(joker) >= 0) {
          el(pieces, "path", {d: "M" + (x - 4.5) + "," + (y - 8.5) + " l2.8,3.3 l-2.8,3.3 l-2.8,-3.3 z",
                              "class": "joker carried", "data-piece": joker, "data-carrier": piece});
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
                ["die", st.ended ? "— (match over)" : st.roll === null ? "to roll" :
                  st.roll + " (" + plural(st.remaining, "step") + " left)"]];
    for (s = 0; s < st.players; s++) rows.push([seatName(ctx, s), plural(view.scores[s], "point")]);
    // Each finished round's points per seat (the match points above are their sums).
    st.history.forEach(function (points, k) {
      rows.push(["round " + (k + 1) + " scored", points.map(function (p, seat) {
        return seatName(ctx, seat) + " " + plural(p, "point");
      }).join(", ")]);
    });
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
  var SPECIAL_TEXT = {row_only: "row only", column_only: "column only", lowest_wins: "lowest wins",
                      banner_wins: "ban wins", needs_two_cards: "needs 2 cards"};
  var SPECIAL_RULE = {row_only: "only the cards beside its row count",
                      column_only: "only the cards beside its column count",
                      lowest_wins: "the lowest positive total captures it; a tie discards it",
                      banner_wins: "a ban token on it gives it to the token's owner",
                      needs_two_cards: "the winner needs two or more mage cards beside its lines"};
  /* A face-up realm card's printed text (ctx.cards, from the content of the match's version):
   * its strength (points) and the margin a seat must win by, its special rule and modifiers. */
  function cardStats(g, x, y, id, ctx) {
    var info = (ctx.cards || {})[id.slice(id.indexOf("-") + 1)];  // keyed without the kind (web/pages.py)
    if (!info) return;
    var mods = Object.keys(info.modifiers || {}).map(function (f) {
      return f + " " + (info.modifiers[f] > 0 ? "+" : "") + info.modifiers[f];
    });
    el(g, "title", {}, info.name + ": strength " + info.strength + " (" + plural(info.strength, "point") +
       " to its captor), captured by a margin of " + info.margin + " or more" +
       (info.special ? "; " + SPECIAL_RULE[info.special] : "") + (mods.length ? "; modifiers: " + mods.join(", ") : ""));
    if (info.special) el(g, "text", {x: x + CW / 2, y: y + CH - 30, "class": "card-special"}, SPECIAL_TEXT[info.special] || info.special);
    el(g, "text", {x: x + CW / 2, y: y + CH - 17, "class": "card-stats", "data-strength": info.strength,
                   "data-margin": info.margin}, info.strength + (info.strength === 1 ? " pt" : " pts") + " · by " + info.margin);
  }
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
          el(g, "text", {x: x + CW / 2, y: y + 22 + k * 12, "class": "card-text"}, line);
        });
        cardStats(g, x, y, card, ctx);
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
    var rows = [["phase", view.phase], ["deck", plural(view.deck_size, "card")]];
    for (var s = 0; s < view.players; s++) {
      rows.push([seatName(ctx, s), (view.factions[s] || "no faction yet") + ", " + view.hand_sizes[s] +
                 " in hand" + (view.scores ? ", " + plural(view.scores[s], "point") : "") +
                 (view.forfeited.indexOf(s) >= 0 ? " (forfeited)" : "")]);
    }
    // E.2: each tied game's reveal (version 2) or its scores alone (version 1 matches).
    if (view.history.length) {
      rows.push(["earlier games", view.history.map(function (game, k) {
        var scores = game.scores || game;
        return "game " + (game.game || k + 1) + " tied: " + scores.join(" – ");
      }).join("; ")]);
    }
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

  /* -- Warlock: the wizards round the table, the circle of duellists and the spells between
   * them, a wanderer's walk, the seats with energy and hands, the round's record ------------- */
  var WL = {W: 900, PAD: 10, CW: 52, CH: 40, GAP: 4, R: 120, T: 36, LEFT: 400};
  /* The spell book's magic half and its wanderers (docs/rules/warlock.md, content); the rest is
   * physical. Only for the look of a card: the view names every spell already. */
  var WL_MAGIC = ["lightning", "thunderclap", "cannon", "darkness", "invisibility", "petrify", "vacuum",
                  "wings", "shield", "mirror", "witch", "priest", "holy-staff"];
  var WL_WANDERERS = ["goblins", "trolls", "giant", "dragon"];
  var WL_ROLE = {duel: "duels", learn: "learns", limbo: "in limbo", away: "back from limbo",
                 out: "out of the game"};
  var WL_PHASE = {decide: "decide in secret: duel or learn", pick: "picks a victim", swap: "swaps a card",
                  learn: "learns a card", "return": "may return from limbo", attack: "attack in secret",
                  conjure: "chooses what the Witch casts", influence: "lets the spells pass or defends",
                  defend: "defend in secret", redirect: "names the reflected spell's victim",
                  ward: "wards off the creature", cut: "a cut of the spell book"};
  var WL_CODE = {repelled: "A", reflected: "R", "double reflection": "R†", undefended: "—"};

  function wlSpell(id) { var m = /^WL-(.+)-\d+$/.exec(id || ""); return m ? m[1] : String(id); }
  function wlCopy(id) { var m = /-(\d+)$/.exec(id || ""); return m ? m[1] : ""; }
  function wlTitle(word) { return word ? word.charAt(0).toUpperCase() + word.slice(1) : ""; }
  function wlWho(view, ctx, seat) {
    var w = view.wizards && view.wizards[seat];
    return w ? wlTitle(w.name) + " (" + seat + ")" : seatName(ctx, seat);
  }
  function wlSegment(segment) {
    return segment === 0 ? "before the duel" : segment === 7 ? "the balance" : "duel segment " + segment;
  }
  function wlSpellsText(keys) { return (keys || []).join(" + "); }

  /* One spell card face up: its spell in one or two lines and its copy; the id as tooltip. */
  function wlCard(parent, x, y, id, cls) {
    var key = wlSpell(id), magic = WL_MAGIC.indexOf(key) >= 0;
    var g = el(parent, "g", {"class": "wl-card " + (magic ? "magic" : "physical") +
                             (WL_WANDERERS.indexOf(key) >= 0 ? " wanderer" : "") + (cls ? " " + cls : ""),
                             "data-card": id});
    el(g, "title", {}, id);
    el(g, "rect", {x: x, y: y, width: WL.CW, height: WL.CH, rx: 4});
    el(g, "text", {x: x + 4, y: y + 9, "class": "wl-card-mark"}, magic ? "magic" : "phys.");
    el(g, "text", {x: x + WL.CW - 4, y: y + 9, "class": "wl-card-mark end"}, wlCopy(id));
    var dash = key.indexOf("-"), lines = dash > 0 ? [key.slice(0, dash), key.slice(dash + 1)] : [key];
    lines.forEach(function (line, k) {
      var attrs = {x: x + WL.CW / 2, y: y + (lines.length === 1 ? 27 : 22 + k * 10), "class": "wl-card-name"};
      if (line.length > 8) { attrs.textLength = WL.CW - 6; attrs.lengthAdjust = "spacingAndGlyphs"; }
      el(g, "text", attrs, line);
    });
    return g;
  }
  function wlCardRows(parent, x, y, ids, per, cls) {
    ids.forEach(function (id, k) {
      wlCard(parent, x + (k % per) * (WL.CW + WL.GAP), y + Math.floor(k / per) * (WL.CH + WL.GAP), id, cls);
    });
    return Math.max(1, Math.ceil(ids.length / per)) * (WL.CH + WL.GAP);
  }
  function wlPill(parent, x, y, text, cls) {
    var w = text.length * 5.6 + 12;
    el(parent, "rect", {x: x, y: y, width: w, height: 15, rx: 7.5, "class": "wl-pill " + (cls || "")});
    el(parent, "text", {x: x + w / 2, y: y + 11, "class": "wl-pill-text " + (cls || "")}, text);
    return w;
  }

  /* An arrow from token a to token b, bent by ``bend``; returns its group and its middle. */
  function wlArrow(parent, a, b, bend, attrs, centre) {
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / len, uy = dy / len, cut = WL.T + 6;
    var x1 = a.x + ux * cut, y1 = a.y + uy * cut, x2 = b.x - ux * cut, y2 = b.y - uy * cut;
    // Bent away from the centre (if given), so labels sit by the rim and the middle stays free.
    if (centre && -uy * ((a.x + b.x) / 2 - centre.x) + ux * ((a.y + b.y) / 2 - centre.y) < -1) bend = -bend;
    var mx = (x1 + x2) / 2 - uy * bend, my = (y1 + y2) / 2 + ux * bend;
    var g = el(parent, "g", attrs);
    el(g, "path", {d: "M" + x1 + "," + y1 + " Q" + mx + "," + my + " " + x2 + "," + y2, "class": "wl-line"});
    var tx = x2 - mx, ty = y2 - my, tl = Math.sqrt(tx * tx + ty * ty) || 1;
    tx /= tl; ty /= tl;
    el(g, "path", {d: "M" + x2 + "," + y2 + " L" + (x2 - tx * 10 - ty * 5) + "," + (y2 - ty * 10 + tx * 5) +
                   " L" + (x2 - tx * 10 + ty * 5) + "," + (y2 - ty * 10 - tx * 5) + " z", "class": "wl-head"});
    return {g: g, x: (x1 + x2) / 2 / 2 + mx / 2, y: (y1 + y2) / 2 / 2 + my / 2};
  }

  /* The spells in flight: the view's attacks and those of the decision under way, by id. */
  function wlThreats(view) {
    var seen = {}, list = [];
    function add(threat, pending) {
      if (!threat || seen[threat.id]) return;
      seen[threat.id] = true;
      list.push({threat: threat, pending: pending});
    }
    (view.attacks || []).forEach(function (t) { add(t, false); });
    var d = view.decision;
    if (d) {
      Object.keys(d.threats || {}).forEach(function (k) { add(d.threats[k], true); });
      add(d.threat, true);
      add(d.opposing, true);
    }
    return list;
  }
  function wlThreatNames(view, previous) {
    var names = {};
    [previous, view].forEach(function (v) {
      if (!v) return;
      wlThreats(v).forEach(function (e) { names[e.threat.id] = wlSpellsText(e.threat.spells); });
      (v.walks || []).forEach(function (w) { names[w.spell.id] = wlSpellsText(w.spell.spells); });
    });
    return names;
  }

  /* A seat's place at the table: seat s+1 sits to the left of seat s, clockwise (D15). */
  function wlPlaces(n, cx, cy) {
    var places = [];
    for (var s = 0; s < n; s++) {
      var a = (-90 + s * 360 / n) * Math.PI / 180;
      places.push({x: cx + WL.R * Math.cos(a), y: cy + WL.R * Math.sin(a), a: a});
    }
    return places;
  }
  function wlToken(parent, view, ctx, seat, p) {
    var w = view.wizards[seat], role = view.roles[seat] || "deciding";
    var acting = (view.to_act || []).indexOf(seat) >= 0;
    var g = el(parent, "g", {"class": "wl-token role-" + role + (acting ? " acting" : ""), "data-seat": seat,
                             "data-role": role});
    el(g, "circle", {cx: p.x, cy: p.y, r: WL.T, stroke: colour(seat),
                     "class": "wl-disc " + (w ? w.colour : "none")});
    el(g, "text", {x: p.x, y: p.y - 3, "class": "wl-token-name " + (w ? w.colour : "none")}, w ? wlTitle(w.name) : "?");
    el(g, "text", {x: p.x, y: p.y + 13, "class": "wl-token-energy " + (w ? w.colour : "none")}, view.energy[seat] + " ⚡");
    // The seat's name and role outside the table: above a token in the upper half, else below.
    var up = Math.sin(p.a) < -0.3, label = WL_ROLE[role] || role;
    el(g, "text", {x: p.x, y: up ? p.y - WL.T - 24 : p.y + WL.T + 13, "class": "wl-token-seat"}, fit(seatName(ctx, seat), 24));
    wlPill(g, p.x - (label.length * 5.6 + 12) / 2, up ? p.y - WL.T - 20 : p.y + WL.T + 17, label, "role-" + role);
    if (seat === view.duel_master) {
      el(g, "circle", {cx: p.x + WL.T * 0.72, cy: p.y - WL.T * 0.72, r: 11, "class": "wl-dm"});
      el(g, "text", {x: p.x + WL.T * 0.72, y: p.y - WL.T * 0.72 + 4, "class": "wl-dm-text"}, "DM");
    }
    if (seat === view.next_duel_master && !(view.phase === "over")) {
      el(g, "circle", {cx: p.x - WL.T * 0.72, cy: p.y - WL.T * 0.72, r: 11, "class": "wl-next-dm"});
      el(g, "text", {x: p.x - WL.T * 0.72, y: p.y - WL.T * 0.72 + 4, "class": "wl-dm-text next"}, "next");
    }
    return g;
  }

  /* The arena: the seats round the table, the circle's order (each attacks the next), the
   * spells in flight from sender to target, and each walking creature before the seat it turns
   * to next. Returns the height. */
  function wlArena(parent, view, ctx, top) {
    var n = view.players, cx = WL.LEFT / 2 + WL.PAD, cy = top + WL.R + WL.T + 44;
    var places = wlPlaces(n, cx, cy), circle = view.circle || [];
    var g = el(parent, "g", {"class": "wl-arena"});
    var h = 2 * WL.R + 2 * WL.T + 110;
    el(g, "rect", {x: WL.PAD, y: top, width: WL.LEFT, height: h, rx: 8, "class": "wl-arena-box"});
    el(g, "circle", {cx: cx, cy: cy, r: WL.R, "class": "wl-table"});
    el(g, "text", {x: WL.PAD + 8, y: top + h - 8, "class": "wl-label"},
       circle.length ? "circle: " + circle.map(function (s) { return wlWho(view, ctx, s); }).join(" → ") : "no duel under way");
    var links = el(g, "g", {"class": "wl-links"});
    if (circle.length >= 2) {
      circle.forEach(function (s, k) {
        var t = circle[(k + 1) % circle.length];
        wlArrow(links, places[s], places[t], 0, {"class": "wl-link", "data-from": s, "data-to": t});
      });
    }
    var flights = el(g, "g", {"class": "wl-flights"}), pairs = {};
    wlThreats(view).forEach(function (e) {
      var t = e.threat;
      if (t.walking || t.sender === t.target) return;  // a walking creature is drawn at its walk
      var key = t.sender + ">" + t.target, k = pairs[key] = (pairs[key] || 0) + 1;
      var arrow = wlArrow(flights, places[t.sender], places[t.target], 34 * k + 6,
                          {"class": "wl-attack" + (e.pending ? " pending" : ""), "data-id": t.id,
                           "data-from": t.sender, "data-to": t.target}, {x: cx, y: cy});
      arrow.g.querySelector(".wl-line").setAttribute("stroke", colour(t.sender));
      arrow.g.querySelector(".wl-head").setAttribute("fill", colour(t.sender));
      var text = wlSpellsText(t.spells), w = text.length * 5.8 + 12;
      el(arrow.g, "rect", {x: arrow.x - w / 2, y: arrow.y - 9, width: w, height: 17, rx: 4, "class": "wl-flight-tag"});
      el(arrow.g, "text", {x: arrow.x, y: arrow.y + 3, "class": "wl-flight-text"}, text);
    });
    for (var s = 0; s < n; s++) wlToken(g, view, ctx, s, places[s]);
    wlWalkMarkers(g, view, ctx, places, cx, cy);
    return h;
  }
  function wlWalkMarkers(parent, view, ctx, places, cx, cy) {
    (view.walks || []).forEach(function (walk, k) {
      var seat = walk.walking ? walk.at : walk.creator, p = places[seat];
      if (!p) return;
      var d = WL.R - WL.T - 46 - 22 * k, x = cx + d * Math.cos(p.a), y = cy + d * Math.sin(p.a);
      var g = el(parent, "g", {"class": "wl-walk-marker" + (walk.walking ? " walking" : " waiting"),
                               "data-at": walk.at, "data-creator": walk.creator});
      el(g, "line", {x1: x, y1: y, x2: p.x - (WL.T + 4) * Math.cos(p.a), y2: p.y - (WL.T + 4) * Math.sin(p.a),
                     stroke: colour(walk.sender), "class": "wl-walk-line"});
      var text = wlSpellsText(walk.spell.spells), w = text.length * 6 + 22;
      el(g, "rect", {x: x - w / 2, y: y - 10, width: w, height: 20, rx: 10, stroke: colour(walk.creator),
                     "class": "wl-walk-tag"});
      el(g, "text", {x: x, y: y + 4, "class": "wl-walk-text"}, "◆ " + text);
    });
  }

  /* Who must act now and on what, from the decision's public facts. */
  function wlStatus(view, ctx) {
    var d = view.decision, what = WL_PHASE[view.phase] || view.phase;
    if (view.phase === "over") return "";
    var walks = view.walks || [], inner = walks[walks.length - 1];
    if (view.phase === "cut" && inner) {  // 8.5: the creator cuts first, then each seat it turns to
      return what + ": " + wlWho(view, ctx, inner.walking ? inner.at : inner.creator) + " cuts for the " +
        wlSpellsText(inner.spell.spells);
    }
    if (!d) return (view.to_act || []).length ? what : what + " (automatic)";
    var who = function (s) { return wlWho(view, ctx, s); };
    if (d.seats) {
      var waiting = d.seats.filter(function (s) { return d.chosen.indexOf(s) < 0; });
      return (WL_PHASE[d.kind] || d.kind) + ": " + (d.chosen.length ? "chosen " + d.chosen.map(who).join(", ") + "; " : "") +
        (waiting.length ? "waiting for " + waiting.map(who).join(", ") : "all have chosen");
    }
    var text = "▶ " + who(d.seat) + " " + (WL_PHASE[d.kind] || d.kind);
    if (d.kind === "conjure") text += " (as " + d.use + ")";
    if (d.candidates) text += " among " + d.candidates.map(who).join(", ");
    if (d.kind === "swap" || d.kind === "learn") text += " (" + d.left + " left" + (d.forced ? "" : ", may stop") + ")";
    return text;
  }
  /* Segments 0 (before the duel) to 7 (the balance), the current one marked. */
  function wlSegments(parent, view, x, y) {
    var g = el(parent, "g", {"class": "wl-segments", "data-segment": view.segment});
    el(g, "text", {x: x, y: y + 15, "class": "wl-label"}, "round " + view.round);
    for (var s = 0; s <= 7; s++) {
      var bx = x + 62 + s * 27, now = s === view.segment && view.phase !== "over";
      var box = el(g, "g", {"class": "wl-seg" + (now ? " current" : s < view.segment ? " past" : ""), "data-segment": s});
      el(box, "rect", {x: bx, y: y + 2, width: 24, height: 18, rx: 4});
      el(box, "text", {x: bx + 12, y: y + 15}, s === 7 ? "⚖" : String(s));
    }
    el(g, "text", {x: x + 62 + 8 * 27 + 6, y: y + 15, "class": "wl-segment-name"},
       view.phase === "over" ? "over" : wlSegment(view.segment));
  }

  /* One seat: its wizard card, energy, role, and hand (face up where the view has it). */
  function wlSeatHeight(hand, per) {
    return 48 + (hand ? Math.max(1, Math.ceil(hand.length / per)) * (WL.CH + WL.GAP) : 30) + 6;
  }
  function wlSeat(parent, view, ctx, seat, box, hand) {
    var w = view.wizards[seat], role = view.roles[seat] || "deciding", d = view.decision;
    var acting = (view.to_act || []).indexOf(seat) >= 0, chosen = d && d.chosen && d.chosen.indexOf(seat) >= 0;
    var cls = "wl-seat role-" + role + (acting ? " acting" : "") + (hand ? " hand-shown" : "");
    var g = el(parent, "g", {"class": cls, "data-seat": seat});
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 8, "class": "wl-seat-box"});
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: 24, rx: 8, "class": "wl-seat-head " + (w ? w.colour : "none")});
    el(g, "circle", {cx: box.x + 13, cy: box.y + 12, r: 6, fill: colour(seat), "class": "seat-dot"});
    var head = (acting ? "▶ " : "") + fit(seatName(ctx, seat), 22) + " · " +
      (w ? wlTitle(w.name) + ", " + w.colour + ", ⚔ " + w.points : "no wizard yet");
    el(g, "text", {x: box.x + 24, y: box.y + 16, "class": "wl-seat-name " + (w ? w.colour : "none")}, head);
    var label = WL_ROLE[role] || role, rx = box.x + box.w - 8 - (label.length * 5.6 + 12);
    wlPill(g, rx, box.y + 4, label, "role-" + role);
    var marks = [];
    if (seat === view.duel_master) marks.push("DM");
    if (seat === view.next_duel_master && view.phase !== "over") marks.push("next DM");
    marks.reverse().forEach(function (m) { rx -= m.length * 5.6 + 16; wlPill(g, rx, box.y + 4, m, "dm"); });
    // Energy: a bar against the starting energy, and what the seat did this decision.
    var y = box.y + 30, full = Math.max((view.options || {}).energy || 199, view.energy[seat]);
    el(g, "text", {x: box.x + 8, y: y + 11, "class": "wl-label"}, "energy");
    el(g, "rect", {x: box.x + 56, y: y + 2, width: 160, height: 10, rx: 3, "class": "wl-bar"});
    el(g, "rect", {x: box.x + 56, y: y + 2, width: 160 * view.energy[seat] / full, height: 10, rx: 3,
                   "class": "wl-bar-fill", "data-energy": view.energy[seat]});
    el(g, "text", {x: box.x + 222, y: y + 11, "class": "wl-value"}, String(view.energy[seat]));
    var notes = [];
    if (view.exhausted && view.exhausted[seat]) notes.push("mocked: no more attacks this round");
    if (chosen) notes.push("✓ has chosen");
    if (view.my_choice && view.seat === seat) notes.push("my choice: " + wlChoiceText(view.my_choice.action));
    if ((view.forfeited || []).indexOf(seat) >= 0) notes.push("forfeited");
    if (view.scores) notes.push("score " + view.scores[seat]);
    el(g, "text", {x: box.x + box.w - 8, y: y + 11, "class": "wl-note end"}, fit(notes.join(" · "), 40));
    wlHand(g, view, seat, {x: box.x, y: y + 18, per: box.per}, hand);
    return g;
  }
  function wlChoiceText(action) {
    if (!action) return "";
    if (action.cards) return action.type + " " + action.cards.map(wlSpell).join(" + ");
    return action.type + (action.choice ? " " + action.choice : "");
  }
  function wlHand(parent, view, seat, at, hand) {
    var count = view.hand_sizes[seat], x0 = at.x + 56;
    el(parent, "text", {x: at.x + 8, y: at.y + 14, "class": "wl-label"}, "hand");
    el(parent, "text", {x: at.x + 8, y: at.y + 27, "class": "wl-value"}, plural(count, "card"));
    if (hand) {
      if (!hand.length) el(parent, "text", {x: x0, y: at.y + 22, "class": "wl-empty"}, "empty");
      wlCardRows(parent, x0, at.y + 2, hand, at.per, "hand");
      return;
    }
    var backs = el(parent, "g", {"class": "wl-backs", "data-count": count});
    for (var k = 0; k < Math.min(count, 20); k++) {
      el(backs, "rect", {x: x0 + k * 11, y: at.y + 4, width: 18, height: 24, rx: 3, "class": "wl-back"});
    }
    el(parent, "text", {x: x0 + Math.min(count, 20) * 11 + 14, y: at.y + 20, "class": count ? "wl-value" : "wl-empty"},
       count ? "× " + count + " (hidden)" : "empty");
  }

  /* The spells in flight as cards, with sender, target and who cast them. Returns the height. */
  function wlFlightList(parent, view, ctx, x, y, w) {
    var list = wlThreats(view), g = el(parent, "g", {"class": "wl-flight-list"}), top = y;
    el(g, "text", {x: x, y: y + 14, "class": "wl-heading"}, "spells in flight");
    y += 20;
    if (!list.length) {
      el(g, "text", {x: x, y: y + 10, "class": "wl-empty"}, "none");
      return y + 18 - top;
    }
    list.forEach(function (e) {
      var t = e.threat, row = el(g, "g", {"class": "wl-flight" + (e.pending ? " pending" : ""), "data-id": t.id});
      t.cards.forEach(function (c, k) { wlCard(row, x + k * (WL.CW + WL.GAP), y, c, "flight"); });
      var tx = x + t.cards.length * (WL.CW + WL.GAP) + 4;
      el(row, "text", {x: tx, y: y + 14, "class": "wl-value"},
         fit("#" + t.id + " " + wlSpellsText(t.spells) + ": " + wlWho(view, ctx, t.sender) + " → " + wlWho(view, ctx, t.target), 52));
      var more = [];
      if (t.caster !== t.sender) more.push("cast by " + wlWho(view, ctx, t.caster) + ", reflected");
      if (t.walking) more.push("wandering");
      if (e.pending) more.push("to be answered now");
      el(row, "text", {x: tx, y: y + 30, "class": "wl-note"}, fit(more.join(" · ") || "waits for its defence", 50));
      y += WL.CH + WL.GAP;
    });
    return y - top;
  }

  /* The walks, innermost last (8.5.7), and the last cut of the spell book. Returns the height. */
  function wlWalkList(parent, view, ctx, x, y) {
    var g = el(parent, "g", {"class": "wl-walks"}), top = y, who = function (s) { return wlWho(view, ctx, s); };
    el(g, "text", {x: x, y: y + 14, "class": "wl-heading"}, "wandering creatures");
    y += 20;
    if (!(view.walks || []).length) {
      el(g, "text", {x: x, y: y + 10, "class": "wl-empty"}, "none");
      y += 18;
    }
    (view.walks || []).forEach(function (walk) {
      var row = el(g, "g", {"class": "wl-walk" + (walk.walking ? " walking" : " waiting"), "data-at": walk.at,
                            "data-creator": walk.creator, "data-id": walk.spell.id});
      walk.spell.cards.forEach(function (c, k) { wlCard(row, x + k * (WL.CW + WL.GAP), y, c, "walker"); });
      var tx = x + walk.spell.cards.length * (WL.CW + WL.GAP) + 4;
      el(row, "text", {x: tx, y: y + 12, "class": "wl-value"}, fit("#" + walk.spell.id + " " + wlSpellsText(walk.spell.spells) + " of " + who(walk.creator) +
         (walk.sender !== walk.creator ? ", sent on by " + who(walk.sender) : ""), 50));
      el(row, "text", {x: tx, y: y + 25, "class": "wl-note"}, walk.walking ?
         fit("turns to " + who(walk.at) + " next · step " + walk.steps + " · " + plural(walk.quiet, "low cut") + " in a row", 60) :
         "waits for its creator's cut");
      el(row, "text", {x: tx, y: y + 37, "class": "wl-note"}, "returns as " + (walk.returns_as === "attack" ? "the attack" :
         "a " + walk.returns_as) + (typeof walk.defender === "number" ? " for " + who(walk.defender) : ""));
      y += WL.CH + WL.GAP + 2;
    });
    if (view.cut) {
      var high = view.cut.number >= ((view.options || {}).wander_threshold || 10);
      var cut = el(g, "g", {"class": "wl-cut" + (high ? " high" : ""), "data-seat": view.cut.seat});
      el(cut, "text", {x: x, y: y + 12, "class": "wl-value"}, "last cut: " + who(view.cut.seat) + " cut " +
         view.cut.spell + ", " + view.cut.number + (high ? " (10 or more)" : " (below 10)"));
      y += 18;
    }
    return y - top;
  }

  /* The public record, one line per entry, with the result codes of 5.7 where there is one. */
  function wlLogText(entry, view, ctx, names) {
    var who = function (s) { return wlWho(view, ctx, s); };
    var spell = function (id) { return "#" + id + (names[id] ? " " + names[id] : ""); };
    switch (entry.event) {
      case "decisions": return "duel: " + (entry.duel.map(who).join(", ") || "nobody") + " · learn: " +
        (entry.learn.map(who).join(", ") || "nobody");
      case "fee": return "fee: " + entry.total + " paid, " + entry.share + " to each duellist";
      case "picked": return who(entry.seat) + " picks " + who(entry.victim);
      case "circle": return "circle: " + entry.circle.map(who).join(" → ");
      case "learned": return who(entry.seat) + " learns (discards " + entry.discarded + ")";
      case "attack": return who(entry.seat) + " attacks with " + wlSpellsText(entry.spells);
      case "mock": return who(entry.seat) + " makes a mock attack";
      case "conjure": return who(entry.seat) + "'s Witch casts " + (wlSpellsText(entry.spells) || "nothing") + " (" + entry.use + ")";
      case "cancel": return spell(entry.threats[0]) + " and " + spell(entry.threats[1]) + " cancel out";
      case "influence": return who(entry.seat) + " chooses to " + entry.choice;
      case "defence": return who(entry.seat) + " defends with " + wlSpellsText(entry.spells) + " against " + spell(entry.threat);
      case "repelled": return who(entry.seat) + " repels " + spell(entry.threat);
      case "reflected": return who(entry.seat) + " reflects " + spell(entry.threat);
      case "double reflection": return who(entry.seat) + ": " + spell(entry.threat) + " and the defence fly back";
      case "redirected": return who(entry.seat) + " sends " + spell(entry.threat) + " to " + who(entry.victim);
      case "undefended": return who(entry.seat) + " cannot defend against " + spell(entry.threat);
      case "banished": return who(entry.seat) + " is banished to limbo";
      case "bonus": return who(entry.seat) + " earns " + entry.energy + " energy";
      case "returned": return who(entry.seat) + " returns from limbo";
      case "left": return who(entry.seat) + " leaves the game";
      case "cut": return who(entry.seat) + " cuts " + entry.spell + ", " + entry.number;
      case "wanders": return spell(entry.threat) + " starts to wander";
      case "ward": return who(entry.seat) + " wards with " + wlSpellsText(entry.spells);
      case "warded": return who(entry.seat) + "'s ward: " + (entry.code ? "result" : "no effect");
      case "walk ended": return spell(entry.threat) + (entry.returned ? " returns to its place" : " is discarded");
      case "reshuffle": return "the discard pile (" + entry.cards + " cards) becomes the spell book";
      default: return entry.event + " " + JSON.stringify(entry).slice(0, 60);
    }
  }
  /* A text in lines of at most ``chars``, broken at spaces. */
  function wlWrap(text, chars) {
    var lines = [];
    while (text.length > chars) {
      var cut = text.lastIndexOf(" ", chars);
      if (cut <= 0) cut = chars;
      lines.push(text.slice(0, cut));
      text = text.slice(cut).replace(/^ /, "");
    }
    return lines.concat([text]);
  }
  function wlLog(parent, view, ctx, box) {
    var log = view.log || [], round = view.round;
    var entries = log.filter(function (e) { return e.round === round; });
    if (!entries.length && log.length) {  // a round just begun: the last one's record
      round = log[log.length - 1].round;
      entries = log.filter(function (e) { return e.round === round; });
    }
    var shown = entries.slice(-box.lines), names = wlThreatNames(view, ctx.previous), earlier = entries.length - shown.length;
    var texts = shown.map(function (entry) { return wlWrap(wlLogText(entry, view, ctx, names), 68); });
    var count = texts.reduce(function (sum, lines) { return sum + lines.length; }, 0);
    var h = 30 + Math.max(1, count) * 15 + (earlier ? 15 : 0);
    var g = el(parent, "g", {"class": "wl-log", "data-round": round, "data-entries": entries.length});
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: h, rx: 8, "class": "wl-log-box"});
    el(g, "text", {x: box.x + 10, y: box.y + 18, "class": "wl-heading"}, "record of round " + round);
    var y = box.y + 34;
    if (earlier) {
      el(g, "text", {x: box.x + 10, y: y, "class": "wl-note"}, "… " + earlier + " earlier " + (earlier === 1 ? "entry" : "entries"));
      y += 15;
    }
    if (!shown.length) el(g, "text", {x: box.x + 10, y: y, "class": "wl-empty"}, "nothing yet");
    shown.forEach(function (entry, k) {
      var line = el(g, "g", {"class": "wl-entry ev-" + entry.event.replace(/ /g, "-"), "data-event": entry.event});
      el(line, "text", {x: box.x + 10, y: y, "class": "wl-entry-seg"}, "s" + entry.segment);
      var code = entry.event === "warded" ? entry.code || "—" : WL_CODE[entry.event];
      if (code) wlPill(line, box.x + box.w - 40, y - 11, code, "code code-" + (code === "R†" ? "RR" : code === "—" ? "none" : code));
      texts[k].forEach(function (text) {
        el(line, "text", {x: box.x + 30, y: y, "class": "wl-entry-text"}, text);
        y += 15;
      });
    });
    return h;
  }

  /* The end (D25): every seat's score and why the match ended. Returns the height. */
  function wlResult(parent, view, ctx, box) {
    var n = view.players, h = 28 + 16 * n, g = el(parent, "g", {"class": "wl-result"});
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: h, rx: 8});
    el(g, "text", {x: box.x + 10, y: box.y + 18, "class": "wl-heading"}, "result: " + (view.end_reason || "ended"));
    var best = Math.max.apply(null, view.scores);
    view.scores.forEach(function (score, s) {
      var y = box.y + 34 + 16 * s;
      el(g, "circle", {cx: box.x + 16, cy: y - 4, r: 5, fill: colour(s), "class": "seat-dot"});
      el(g, "text", {x: box.x + 26, y: y, "class": "wl-value" + (score === best ? " winner" : ""), "data-seat": s},
         wlWho(view, ctx, s) + ": score " + score + (score === best ? " — wins" : "") +
         (view.in_game[s] ? "" : " (left the game)"));
    });
    return h;
  }

  function wlRows(view, ctx) {
    var who = function (s) { return wlWho(view, ctx, s); };
    var rows = [["round", view.round + " of at most " + ((view.options || {}).max_rounds || "?")],
                ["segment", view.segment + " (" + wlSegment(view.segment) + ")"],
                ["phase", view.phase + ((view.to_act || []).length ? " (" + view.to_act.map(who).join(", ") + " to act)" : "")],
                ["duel master", typeof view.duel_master === "number" ? who(view.duel_master) : "—"],
                ["next duel master", typeof view.next_duel_master === "number" ? who(view.next_duel_master) : "—"],
                ["circle", (view.circle || []).map(who).join(" → ") || "—"]];
    for (var s = 0; s < view.players; s++) {
      var w = view.wizards[s];
      rows.push([seatName(ctx, s), (w ? wlTitle(w.name) + " (" + w.colour + ", " + w.points + " combat points)" : "no wizard yet") +
                 ", " + view.energy[s] + " energy, " + (WL_ROLE[view.roles[s]] || view.roles[s] || "deciding") + ", " +
                 view.hand_sizes[s] + " in hand" + (view.scores ? ", score " + view.scores[s] : "")]);
    }
    (view.walks || []).forEach(function (walk) {
      rows.push(["walk", wlSpellsText(walk.spell.spells) + " of " + who(walk.creator) + (walk.walking ? ", turns to " + who(walk.at) +
                 " next" : ", not yet walking") + ", returns as " + walk.returns_as]);
    });
    if (view.cut) rows.push(["last cut", who(view.cut.seat) + ": " + view.cut.spell + ", " + view.cut.number]);
    rows.push(["spell book", view.deck_size + " cards, " + (view.discard || []).length + " discarded"]);
    if (view.scores) rows.push(["result", (view.end_reason || "ended") + ", scores " + view.scores.join(", ")]);
    return rows;
  }

  renderers.warlock = function (svg, view, ctx) {
    var full = view.full_state || null, me = typeof view.seat === "number" ? view.seat : null;
    var over = view.phase === "over", n = view.players;
    svg.setAttribute("class", "board warlock");
    var hands = {};
    if (full) full.hands.forEach(function (h, s) { hands[s] = h; });
    if (me !== null && view.hand) hands[me] = view.hand;
    var title = over ? "match over: " + (view.end_reason || "ended") :
      "round " + view.round + " · segment " + view.segment + " · " + view.phase;
    el(svg, "text", {x: WL.PAD, y: 18, "class": "title"}, title);
    el(svg, "text", {x: WL.W - WL.PAD, y: 18, "class": "title perspective"},
       me !== null ? "as " + seatName(ctx, me) : full ? "full state" : "public view");
    var status = wlStatus(view, ctx);
    if (status) el(svg, "text", {x: WL.PAD, y: 36, "class": "wl-status"}, fit(status, 140));
    // Left: the segments, the arena, the spells in flight and the walks.
    var top = 44;
    wlSegments(svg, view, WL.PAD, top);
    var y = top + 28;
    y += wlArena(svg, view, ctx, y) + 8;
    y += wlFlightList(svg, view, ctx, WL.PAD + 4, y, WL.LEFT) + 6;
    y += wlWalkList(svg, view, ctx, WL.PAD + 4, y);
    var bottom = y;
    // Right: the result, the seats, the round's record.
    var right = WL.LEFT + 2 * WL.PAD, colW = WL.W - right - WL.PAD;
    var per = Math.floor((colW - 64) / (WL.CW + WL.GAP));
    y = top;
    if (over && view.scores) y += wlResult(svg, view, ctx, {x: right, y: y, w: colW}) + 8;
    for (var s = 0; s < n; s++) {
      var h = wlSeatHeight(hands[s], per);
      wlSeat(svg, view, ctx, s, {x: right, y: y, w: colW, h: h, per: per}, hands[s]);
      y += h + 8;
    }
    y += wlLog(svg, view, ctx, {x: right, y: y, w: colW, lines: 24});
    svg.setAttribute("viewBox", "0 0 " + WL.W + " " + (Math.max(bottom, y) + 8));
    return wlRows(view, ctx);
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

  /* -- legends: what a board's symbols mean, each drawn small with the board's own classes ---- */
  function legendCard(svg, cls, text) {
    var g = el(svg, "g", {"class": "card " + cls});
    var rect = el(g, "rect", {x: 2, y: 2, width: 24, height: 32, rx: 3});
    if (text) el(g, "text", {x: 14, y: 22, "class": "legend-mark"}, text);
    return {g: g, rect: rect};
  }
  var LEGENDS = {
    sorcado: [
      [function (svg) { legendCard(svg, "face-down", "✦"); }, "face-down realm card"],
      [function (svg) { legendCard(svg, "known", "?"); }, "face down on the table, but this perspective has seen it (its name shows)"],
      [function (svg) { legendCard(svg, "face-up", "6"); }, "“6 pts · by 3”: the card's strength (points to its captor) and the margin its captor must win by"],
      [function (svg) { legendCard(svg, "face-down looked"); }, "amber outline: looked at this turn"],
      [function (svg) { legendCard(svg, "face-up spell pending"); }, "purple outline: the spell being carried out"],
      [function (svg) {
        legendCard(svg, "face-down");
        el(svg, "circle", {cx: 14, cy: 18, r: 8, fill: colour(1), "class": "ban"});
        el(svg, "text", {x: 14, y: 22, "class": "ban-text"}, "✕");
      }, "ban token, in the colour of the seat that laid it: that card cannot be looked at or moved"],
      [function (svg) {
        var c = legendCard(svg, "face-up");
        c.rect.style.stroke = colour(0);
        c.rect.style.strokeWidth = "3";
        el(svg, "circle", {cx: 20, cy: 28, r: 4, fill: colour(0), "class": "captor"});
      }, "at the end: outline and dot in the colour of the seat that captured the card"],
      [function (svg) { legendCard(svg, "face-up discarded"); }, "greyed at the end: nobody captured it (a tie, or no seat won by its margin)"],
      [function (svg) {
        el(svg, "rect", {x: 5, y: 6, width: 18, height: 24, rx: 3, fill: colour(1), "class": "chip"});
        el(svg, "text", {x: 14, y: 22, "class": "chip-text"}, "4");
      }, "mage card beside a row or column, in its seat's colour, with its power where this perspective knows it (faded: face down)"]
    ],
    "trap-the-wizard": [
      [function (svg) { el(svg, "circle", {cx: 14, cy: 18, r: 8, fill: colour(0), "class": "wizard"}); }, "a wizard, in its seat's colour"],
      [function (svg) {
        el(svg, "circle", {cx: 12, cy: 20, r: 8, fill: colour(0), "class": "wizard"});
        el(svg, "circle", {cx: 20, cy: 11, r: 6, "class": "badge"});
        el(svg, "text", {x: 20, y: 14, "class": "badge-text"}, "2");
      }, "the number of enemy wizards it has captured and carries"],
      [function (svg) { el(svg, "path", {d: "M14,6 l9,12 l-9,12 l-9,-12 z", "class": "joker"}); }, "the joker, lying on a field"],
      [function (svg) {
        el(svg, "circle", {cx: 16, cy: 21, r: 8, fill: colour(1), "class": "wizard"});
        el(svg, "path", {d: "M8,3 l5,6 l-5,6 l-5,-6 z", "class": "joker carried"});
      }, "a wizard carrying the joker: it captures on grey fields too"],
      [function (svg) { el(svg, "circle", {cx: 14, cy: 18, r: 8, "class": "field special"}); }, "grey field: no capture there unless the mover carries the joker"],
      [function (svg) { el(svg, "circle", {cx: 14, cy: 18, r: 9, "class": "field start", stroke: colour(2), "stroke-width": 3}); }, "a seat's start field, where its wizards bring their captives home"],
      [function (svg) { el(svg, "circle", {cx: 14, cy: 18, r: 10, "class": "field centre"}); }, "the centre, where the joker starts"],
      [function (svg) { el(svg, "circle", {cx: 14, cy: 18, r: 8, fill: colour(3), "class": "wizard moved"}); }, "glow: the piece this step moved"]
    ]
  };
  /* The legend of ``ruleset``'s board into ``container`` (left hidden for a game without one). */
  renderers.legend = function (container, ruleset) {
    var entries = LEGENDS[ruleset];
    if (!entries) return;
    var heading = document.createElement("h2"), list = document.createElement("ul");
    heading.textContent = "Legend";
    entries.forEach(function (entry) {
      var item = document.createElement("li"), svg = document.createElementNS(NS, "svg"), text = document.createElement("span");
      svg.setAttribute("viewBox", "0 0 28 36");
      svg.setAttribute("class", "board legend-symbol " + (ruleset === "trap-the-wizard" ? "ttw" : ruleset));
      svg.setAttribute("aria-hidden", "true");
      entry[0](svg);
      text.textContent = entry[1];
      item.appendChild(svg);
      item.appendChild(text);
      list.appendChild(item);
    });
    container.appendChild(heading);
    container.appendChild(list);
    container.hidden = false;
  };

  // The small helpers, for the renderers kept in files of their own (renderers-*.js).
  renderers.util = {el: el, colour: colour, seatName: seatName, fit: fit, plural: plural};
  window.renderers = renderers;
})();
