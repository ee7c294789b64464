/* Wizard Kings: the hex map (terrain, coast, cities, henges, rivers, roads, bridges, walls and
 * gates), the blocks standing on end (face down to those who may not know them), the fights to
 * come, the battle under way, the seats and the public record (docs/rules/wizard-kings.md, "For
 * bot authors"). Loaded after renderers.js, whose contract it keeps: renderers["wizard-kings"]
 * (svg, view, ctx) draws the view and returns the info panel's rows, reading nothing but the
 * view (and, in the full perspective, the view's full_state). */
(function () {
  "use strict";
  var renderers = window.renderers, util = renderers.util;
  var el = util.el, colour = util.colour, seatName = util.seatName, fit = util.fit, plural = util.plural;
  function cities(k) { return k + (k === 1 ? " city" : " cities"); }

  var R = 40, HY = Math.sqrt(3) * R, PAD = 12, TOP = 46, SEAT_H = 44;
  var TERRAIN = {c: "clear", d: "desert", f: "forest", s: "swamp", m: "mountain", p: "pass", w: "water"};
  var TERRAIN_ORDER = ["clear", "desert", "forest", "swamp", "mountain", "pass", "water"];
  var PHASE = {deal: "the armies and maps are dealt", recruit: "recruiting (secret)", ids: "the new blocks are shuffled",
               initiative: "initiative", move: "movement", battle: "battles", build: "building (secret)", over: "match over"};
  var STEP = {turn: "a block's turn", hit: "hits to give out", dispel: "Dispel Magic?", retreat: "retreats",
              "switch": "allies choose sides", pursue: "pursuit?", regroup: "regrouping", roll: "dice"};

  function parse(hex) { return {col: parseInt(hex.slice(0, 2), 10), row: parseInt(hex.slice(2), 10)}; }
  function centre(hex) {
    var h = parse(hex);
    return {x: PAD + R + h.col * 1.5 * R, y: TOP + HY / 2 + h.row * HY + (h.col % 2 ? HY / 2 : 0)};
  }
  function corners(c, r) {
    var pts = [];
    for (var k = 0; k < 6; k++) {
      var a = Math.PI / 3 * k;
      pts.push((c.x + r * Math.cos(a)).toFixed(1) + "," + (c.y + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }
  /* The two ends of the hexside "AAAA|BBBB" (pulled towards ``toward``'s centre by ``inset``). */
  function sideEnds(side, toward, inset) {
    var ab = side.split("|"), a = centre(ab[0]), b = centre(ab[1]);
    var dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / len, uy = dy / len, mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    if (toward) {
      var t = centre(toward), sign = (t.x - mx) * ux + (t.y - my) * uy > 0 ? 1 : -1;
      mx += sign * ux * inset;
      my += sign * uy * inset;
    }
    return {x1: mx - uy * R / 2, y1: my + ux * R / 2, x2: mx + uy * R / 2, y2: my - ux * R / 2, mx: mx, my: my,
            ux: ux, uy: uy, a: a, b: b};
  }
  function short(kind) { return String(kind || "").split("/").pop().replace(/_/g, " "); }
  function tag(seat) { return seat === null || seat === undefined ? "nobody" : "seat " + seat; }   // where room is short
  function seatOf(key) { return key === null || key === undefined ? null : parseInt(key, 10); }
  function who(view, ctx, seat) {
    if (seat === null || seat === undefined) return "nobody";
    var army = (view.armies || [])[seat];
    return seatName(ctx, seat) + (army ? " (" + army + ")" : "");
  }

  /* -- the blocks: the view's (or, in the full perspective, every block in full) ------------- */
  function blockList(view) {
    var full = view.full_state;
    if (full && full.blocks) {
      return Object.keys(full.blocks).sort().map(function (id) {
        var b = full.blocks[id];
        return {id: id, owner: b.owner, hex: b.hex, moved: b.moved, kind: b.kind, steps: b.steps, known: b.known, cast: b.cast,
                armed: !!b.artefact, artefact: b.artefact};
      });
    }
    return view.blocks || [];
  }
  function ownKind(view, kind) { return view.army && view.army.kinds ? view.army.kinds[kind] : null; }

  /* One block standing in its hex: face down (the owner's colour and its id) or revealed (its
   * kind and, where the view gives it, its strength, also shown by the pips along its top). */
  function drawBlock(parent, view, ctx, b, x, y, s, battle) {
    var revealed = typeof b.kind === "string", draft = !!b.draft;
    var cls = "wk-block " + (revealed ? "revealed" : "face-down") + (draft ? " draft" : "");
    if (battle) {
      if (battle.current === b.id) cls += " current";
      if (battle.hits && (battle.hits.among || []).indexOf(b.id) >= 0) cls += " among";
      if ((battle.forced || []).indexOf(b.id) >= 0) cls += " forced";
      if ((battle.turns || []).indexOf(b.id) >= 0) cls += " to-act";
    }
    if (b.cast) cls += " cast";
    var attrs = {"class": draft ? "wk-draft-block " + (revealed ? "revealed" : "face-down") : cls,
                 "data-id": b.id, "data-owner": b.owner, "data-hex": b.hex};
    if (revealed) {
      attrs["data-kind"] = b.kind;
      if (typeof b.steps === "number") attrs["data-steps"] = b.steps;
    }
    if (b.moved) attrs["data-moved"] = "1";
    var g = el(parent, "g", attrs);
    var info = revealed ? ownKind(view, b.kind) : null;
    var tip = b.id + " of " + seatName(ctx, b.owner) + (revealed ? ": " + (info ? info.name + " " + info.rating : short(b.kind)) +
              (typeof b.steps === "number" ? ", " + plural(b.steps, "step") + (info ? " of " + info.max : "") : "") : ", face down") +
              (b.moved ? ", moved this turn" : "") + (b.cast ? ", cast a spell" : "") + (draft ? " (planned)" : "") +
              (b.artefact ? ", carries " + short(b.artefact.key) + (typeof b.artefact.steps === "number" ?
                 " (" + plural(b.artefact.steps, "charge") + ")" : "") : b.armed ? ", carries an artefact" : "");
    el(g, "title", {}, tip);
    el(g, "rect", {x: x, y: y, width: s, height: s, rx: s / 7, fill: revealed ? "#fbf6e9" : colour(b.owner),
                   stroke: revealed ? colour(b.owner) : "#1d2330", "class": "wk-block-body"});
    if (b.armed || b.artefact) {   // 2.7: an artefact stands by its carrier, a small gold lozenge
      var r = s * 0.13, ax = x + s - r * 1.1, ay = y + s - r * 1.1;
      el(g, "path", {d: "M" + ax + " " + (ay - r) + "L" + (ax + r) + " " + ay + "L" + ax + " " + (ay + r) + "L" + (ax - r) + " " + ay + "Z",
                     "class": "wk-artefact", fill: "#d4a017", stroke: "#1d2330", "stroke-width": 0.6,
                     "data-artefact": b.artefact ? b.artefact.key : ""});
    }
    if (!revealed) {
      el(g, "text", {x: x + s / 2, y: y + s / 2 + s * 0.11, "class": "wk-block-id", "font-size": (s * 0.3).toFixed(1)},
         b.id.replace(/^new-\d+-/, "+"));
      return g;
    }
    el(g, "rect", {x: x, y: y, width: s, height: s * 0.2, rx: s / 10, fill: colour(b.owner), "class": "wk-block-band"});
    if (typeof b.steps === "number") {
      el(g, "text", {x: x + s / 2, y: y + s * 0.64, "class": "wk-block-steps", "font-size": (s * 0.46).toFixed(1)}, String(b.steps));
      for (var k = 0; k < b.steps && k < 4; k++) {   // the strength as pips along the top (a block's upright edge)
        el(g, "circle", {cx: x + s / 2 + (k - (Math.min(b.steps, 4) - 1) / 2) * s * 0.2, cy: y + s * 0.1, r: s * 0.06,
                         "class": "wk-block-pip"});
      }
    }
    var name = short(b.kind), fontSize = s * (typeof b.steps === "number" ? 0.25 : 0.3);
    var label = {x: x + s / 2, y: y + (typeof b.steps === "number" ? s * 0.91 : s * 0.62), "class": "wk-block-kind",
                 "font-size": fontSize.toFixed(1)};
    if (name.length * fontSize * 0.55 > s - 2) { label.textLength = s - 2; label.lengthAdjust = "spacingAndGlyphs"; }
    el(g, "text", label, name.length > 9 ? name.slice(0, 8) + "." : name);
    return g;
  }

  /* The blocks of one hex side by side, in rows, smaller as there are more. */
  function blockGrid(n) {
    if (n <= 1) return {cols: 1, s: 30};
    if (n === 2) return {cols: 2, s: 27};
    if (n === 3) return {cols: 3, s: 22};
    if (n === 4) return {cols: 2, s: 24};
    if (n <= 6) return {cols: 3, s: 19};
    if (n <= 9) return {cols: 3, s: 16};
    return {cols: 4, s: 12};
  }
  function drawStack(parent, view, ctx, hex, items, battle, city) {
    var c = centre(hex), grid = blockGrid(items.length), gap = 2, s = grid.s;
    var rows = Math.ceil(items.length / grid.cols), top = c.y - (rows * s + (rows - 1) * gap) / 2 + (city ? 7 : 0);
    items.forEach(function (b, i) {
      var row = Math.floor(i / grid.cols), inRow = Math.min(grid.cols, items.length - row * grid.cols);
      var x = c.x - (inRow * s + (inRow - 1) * gap) / 2 + (i % grid.cols) * (s + gap);
      drawBlock(parent, view, ctx, b, x, top + row * (s + gap), s, battle);
    });
  }

  /* -- the map ------------------------------------------------------------------------------ */
  function defs(svg) {
    var d = el(svg, "defs", {});
    var p = el(d, "pattern", {id: "wk-pat-forest", width: 12, height: 12, patternUnits: "userSpaceOnUse"});
    el(p, "circle", {cx: 3, cy: 3, r: 2.2, "class": "wk-pat-tree"});
    el(p, "circle", {cx: 9, cy: 9, r: 2.2, "class": "wk-pat-tree"});
    p = el(d, "pattern", {id: "wk-pat-swamp", width: 14, height: 8, patternUnits: "userSpaceOnUse"});
    el(p, "path", {d: "M1,4 h6 M8,8 h5", "class": "wk-pat-reed"});
    p = el(d, "pattern", {id: "wk-pat-desert", width: 9, height: 9, patternUnits: "userSpaceOnUse"});
    el(p, "circle", {cx: 2, cy: 2, r: 0.9, "class": "wk-pat-sand"});
    el(p, "circle", {cx: 6.5, cy: 6.5, r: 0.9, "class": "wk-pat-sand"});
    p = el(d, "pattern", {id: "wk-pat-mountain", width: 16, height: 12, patternUnits: "userSpaceOnUse"});
    el(p, "path", {d: "M1,11 L6,3 L11,11", "class": "wk-pat-peak"});
    p = el(d, "pattern", {id: "wk-pat-water", width: 18, height: 10, patternUnits: "userSpaceOnUse"});
    el(p, "path", {d: "M1,6 q2.5,-3 5,0 t5,0", "class": "wk-pat-wave"});
    p = el(d, "pattern", {id: "wk-pat-shoal", width: 7, height: 7, patternUnits: "userSpaceOnUse"});
    el(p, "circle", {cx: 3.5, cy: 3.5, r: 1.2, "class": "wk-pat-shoal"});
  }

  function drawMap(svg, view, ctx) {
    var board = view.board, cities = view.cities || {};
    var coast = {}, henge = {}, shoal = {}, water = {};
    (board.coast || []).forEach(function (h) { coast[h] = true; });
    (board.henges || []).forEach(function (h) { henge[h] = true; });
    (board.shoals || []).forEach(function (h) { shoal[h] = true; });
    var hexes = el(svg, "g", {"class": "wk-hexes"});
    board.terrain.forEach(function (line, row) {
      for (var col = 0; col < line.length; col++) {
        var hex = (col < 10 ? "0" : "") + col + (row < 10 ? "0" : "") + row, terrain = TERRAIN[line[col]] || "clear";
        if (terrain === "water") water[hex] = true;
        var c = centre(hex);
        var g = el(hexes, "g", {"class": "wk-hex " + terrain + (coast[hex] ? " coast" : "") + (shoal[hex] ? " shoal" : ""),
                                "data-hex": hex, "data-terrain": terrain});
        var place = (board.names || {})[hex], city = (board.cities || {})[hex];
        el(g, "title", {}, hex + " · " + terrain + (coast[hex] ? " · coast" : "") + (shoal[hex] ? " · shoal" : "") +
           (henge[hex] ? " · henge" : "") + (city ? " · city " + city.name + " (" + city.gold + " gold)" : "") +
           (place ? " · " + place : ""));
        el(g, "polygon", {points: corners(c, R), "class": "wk-terrain"});
        if (terrain !== "clear" && terrain !== "pass") el(g, "polygon", {points: corners(c, R), fill: "url(#wk-pat-" + terrain + ")", "class": "wk-texture"});
        if (terrain === "pass") {
          el(g, "polygon", {points: corners(c, R), fill: "url(#wk-pat-mountain)", "class": "wk-texture faint"});
          el(g, "path", {d: "M" + (c.x - R * 0.7) + "," + (c.y + 6) + " Q" + c.x + "," + (c.y - 8) + " " + (c.x + R * 0.7) + "," + (c.y + 6),
                         "class": "wk-pass-line"});
        }
        if (shoal[hex]) el(g, "polygon", {points: corners(c, R), fill: "url(#wk-pat-shoal)", "class": "wk-texture"});
        el(g, "text", {x: c.x, y: c.y + HY / 2 - 4, "class": "wk-hex-id"}, hex);
      }
    });
    // Coast: a shore along each side the hex shares with open water (else a ring).
    var shores = el(svg, "g", {"class": "wk-coasts"});
    Object.keys(coast).forEach(function (hex) {
      var c = parse(hex), near = neighbours(c.col, c.row).filter(function (h) { return water[h]; });
      var g = el(shores, "g", {"class": "wk-coast", "data-hex": hex});
      if (!near.length) { el(g, "polygon", {points: corners(centre(hex), R * 0.86), "class": "wk-shore-ring"}); return; }
      near.forEach(function (h) {
        var e = sideEnds(hex < h ? hex + "|" + h : h + "|" + hex, hex, 3);
        el(g, "line", {x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2, "class": "wk-shore"});
      });
    });
    // Roads from centre to centre across their hexsides, then the hexside features.
    var roads = el(svg, "g", {"class": "wk-roads"});
    (board.roads || []).forEach(function (side) {
      var e = sideEnds(side);
      el(roads, "line", {x1: e.a.x, y1: e.a.y, x2: e.b.x, y2: e.b.y, "class": "wk-road", "data-side": side});
    });
    var sides = el(svg, "g", {"class": "wk-sides"});
    function line(side, cls) {
      var e = sideEnds(side);
      return el(sides, "line", {x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2, "class": cls, "data-side": side});
    }
    (board.rivers || []).forEach(function (side) { line(side, "wk-river"); });
    (board.waterfalls || []).forEach(function (side) {
      var e = sideEnds(side), g = el(sides, "g", {"class": "wk-waterfall", "data-side": side});
      for (var k = -1; k <= 1; k++) {
        var px = e.mx + e.uy * k * 7, py = e.my - e.ux * k * 7;
        el(g, "line", {x1: px - e.ux * 5, y1: py - e.uy * 5, x2: px + e.ux * 5, y2: py + e.uy * 5});
      }
    });
    (board.walls || []).forEach(function (side) { line(side, "wk-wall"); });
    (board.gates || []).forEach(function (side) {
      var e = sideEnds(side), g = el(sides, "g", {"class": "wk-gate", "data-side": side});
      el(g, "line", {x1: e.mx + e.uy * 9, y1: e.my - e.ux * 9, x2: e.mx - e.uy * 9, y2: e.my + e.ux * 9});
    });
    (board.bridges || []).forEach(function (side) {
      var e = sideEnds(side), g = el(sides, "g", {"class": "wk-bridge", "data-side": side});
      el(g, "line", {x1: e.mx - e.ux * 9, y1: e.my - e.uy * 9, x2: e.mx + e.ux * 9, y2: e.my + e.uy * 9, "class": "wk-bridge-deck"});
    });
    // Henges: a ring of standing stones.
    var stones = el(svg, "g", {"class": "wk-henges"});
    Object.keys(henge).forEach(function (hex) {
      var c = centre(hex), g = el(stones, "g", {"class": "wk-henge", "data-hex": hex});
      el(g, "title", {}, "henge at " + hex + " (a wizard here gains a step at each build, 6.6)");
      el(g, "circle", {cx: c.x, cy: c.y, r: 15, "class": "wk-henge-ground"});   // round the hex's centre: it peeks out under blocks
      for (var k = 0; k < 10; k++) {
        var a = Math.PI * 2 * k / 10;
        el(g, "rect", {x: c.x + 15 * Math.cos(a) - 2, y: c.y + 15 * Math.sin(a) - 2.5, width: 4, height: 5});
      }
    });
    // Map names above their columns, and a line where two maps meet.
    var per = board.width / Math.max(1, (board.maps || []).length);
    (board.maps || []).forEach(function (name, k) {
      var left = centre(pad(k * per) + "00").x, right = centre(pad(k * per + per - 1) + "00").x;
      // D1: "15~" is map 15 laid turned half round (two players' east map, version 4)
      var turned = name.slice(-1) === "~", label = "map " + (turned ? name.slice(0, -1) + ", turned" : name);
      el(svg, "text", {x: (left + right) / 2, y: TOP - 6, "class": "wk-map-name"}, label);
    });
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function neighbours(col, row) {
    var steps = col % 2 ? [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0]] : [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]];
    return steps.map(function (d) { return pad(col + d[0]) + pad(row + d[1]); })
      .filter(function (h, i) { return col + steps[i][0] >= 0 && row + steps[i][1] >= 0; });
  }

  function drawCities(svg, view, ctx) {
    var board = view.board, layer = el(svg, "g", {"class": "wk-cities"});
    Object.keys(board.cities || {}).sort().forEach(function (hex) {
      var city = board.cities[hex], now = (view.cities || {})[hex] || {}, c = centre(hex);
      var ctrl = typeof now.controller === "number" ? now.controller : null;
      var g = el(layer, "g", {"class": "wk-city" + (ctrl === null ? " contested" : ""), "data-hex": hex,
                              "data-controller": ctrl === null ? "none" : ctrl, "data-gold": city.gold,
                              "data-marker": now.gold || 0});
      el(g, "title", {}, city.name + " (" + hex + "): worth " + city.gold + " gold; held by " +
         (ctrl === null ? "nobody (contested)" : who(view, ctx, ctrl)) +
         (typeof now.owner === "number" ? "; on " + seatName(ctx, now.owner) + "'s map" : "") + "; " + (now.gold || 0) + " gold on its marker");
      el(g, "polygon", {points: corners(c, R - 3.5), "class": "wk-city-ring", stroke: ctrl === null ? "#6b7384" : colour(ctrl)});
      var name = fit(city.name, 14), w = Math.min(R * 1.5, name.length * 4.6 + 22), y = c.y - HY / 2 + 3;
      el(g, "rect", {x: c.x - w / 2, y: y, width: w, height: 11, rx: 3, "class": "wk-city-label",
                     stroke: ctrl === null ? "#6b7384" : colour(ctrl)});
      var text = {x: c.x - 5, y: y + 8.5, "class": "wk-city-name"};
      if (name.length * 4.6 > w - 14) { text.textLength = w - 16; text.lengthAdjust = "spacingAndGlyphs"; }
      el(g, "text", text, name);
      el(g, "circle", {cx: c.x + w / 2 - 5.5, cy: y + 5.5, r: 5, "class": "wk-city-gold"});
      el(g, "text", {x: c.x + w / 2 - 5.5, y: y + 8.2, "class": "wk-city-gold-text"}, String(city.gold));
      if (now.gold) el(g, "text", {x: c.x + R * 0.62, y: c.y + HY / 2 - 5, "class": "wk-city-marker"}, now.gold + "g");
    });
  }

  /* The hexsides blocks entered a fight by: an arrowhead per seat, in the seat's colour. */
  function drawEntries(parent, hex, entered) {
    Object.keys(entered || {}).forEach(function (side) {
      var e = sideEnds(side, hex, 0), seats = entered[side];
      seats.forEach(function (seat, k) {
        var sign = (centre(hex).x - e.mx) * e.ux + (centre(hex).y - e.my) * e.uy > 0 ? 1 : -1;
        var off = (k - (seats.length - 1) / 2) * 9;
        var bx = e.mx + e.uy * off - sign * e.ux * 5, by = e.my - e.ux * off - sign * e.uy * 5;
        var tx = bx + sign * e.ux * 11, ty = by + sign * e.uy * 11;
        el(parent, "path", {d: "M" + tx + "," + ty + " L" + (bx + e.uy * 5) + "," + (by - e.ux * 5) + " L" + (bx - e.uy * 5) + "," + (by + e.ux * 5) + " z",
                            fill: colour(seat), "class": "wk-entry", "data-side": side, "data-seat": seat});
      });
    });
  }

  /* -- the panels below the map ----------------------------------------------------------- */
  function sideText(view, ctx, sides) {
    var attack = [], defend = [];
    Object.keys(sides || {}).forEach(function (k) { (sides[k] === "attack" ? attack : defend).push(tag(seatOf(k))); });
    return "attack: " + (attack.join(", ") || "—") + " · defend: " + (defend.join(", ") || "—");
  }
  function blockText(view, id) {
    var b = null;
    blockList(view).forEach(function (x) { if (x.id === id) b = x; });
    if (!b) return id;
    return id + (typeof b.kind === "string" ? " " + short(b.kind) + (typeof b.steps === "number" ? " (" + b.steps + ")" : "") : "");
  }
  function cityName(view, hex) {
    var city = view.board && (view.board.cities || {})[hex];
    return hex + (city ? " " + city.name : "");
  }
  function panelBox(parent, box, title, cls, attrs) {
    var g = el(parent, "g", Object.assign({"class": "wk-panel " + cls}, attrs || {}));
    el(g, "rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 7, "class": "wk-panel-box"});
    el(g, "text", {x: box.x + 9, y: box.y + 16, "class": "wk-heading"}, title);
    return g;
  }
  function lines(g, box, texts, cls, first) {
    var chars = Math.floor((box.w - 18) / 5.6);
    texts.forEach(function (t, k) {
      el(g, "text", {x: box.x + 9, y: box.y + (first || 32) + 14 * k, "class": cls || "wk-line"}, fit(t, chars));
    });
  }

  function battleLines(view, ctx, b) {
    var out = [(b.round === 4 ? "pursuit round" : "round " + b.round + " of 3") + " · " + (STEP[b.step] || b.step),
               tag(b.attacker) + " attacks " + tag(b.defender) +
               (Object.keys(b.sides || {}).length > 2 ? " · " + sideText(view, ctx, b.sides) : "")];   // allies (4.9)
    if (b.current) out.push("turn of " + blockText(view, b.current));
    if ((b.turns || []).length) out.push("to act: " + b.turns.join(", "));
    if (b.hits) out.push(plural(b.hits.left, "hit") + " left, by " + (b.hits.spell ? short(b.hits.spell) + " of " : "") + b.hits.by +
                         ((b.hits.among || []).length ? "; among " + b.hits.among.join(", ") : ""));
    if (b.cast) out.push("casting " + short(b.cast.spell) + " by " + b.cast.caster + (b.cast.target ? " on " + b.cast.target : ""));
    if ((b.dispellers || []).length) out.push("may dispel: " + b.dispellers.join(", "));
    if ((b.forced || []).length) out.push("must retreat: " + b.forced.join(", "));
    if (b.winner) out.push("won by the " + (b.winner === "attack" ? "attackers" : "defenders") +
                           (typeof b.holder === "number" ? "; " + tag(b.holder) + " holds the hex" : ""));
    if ((b.regrouped || []).length) out.push("regrouped: " + b.regrouped.join(", "));
    return out;
  }

  function logText(view, ctx, e) {
    var s = tag;
    if (e.move !== undefined) return e.move + " (" + s(e.seat) + ") moves to " + e.to;
    if (e.initiative !== undefined) return "initiative: " + Object.keys(e.rolls || {}).map(function (k) { return s(seatOf(k)) + " " + e.rolls[k]; }).join(", ") +
      " → order " + e.initiative.map(s).join(", ");
    if (e.battle !== undefined && e.attacker !== undefined) return "battle at " + cityName(view, e.battle) + ": " + s(e.attacker) + " attacks " + s(e.defender);
    if (e.fire !== undefined) return e.fire + " fires " + (e.dice || []).join(" ") + ": " + plural(e.hits, "hit");
    if (e.spell !== undefined) return short(e.spell) + " rolls " + (e.dice || []).join(" ") + ": " + plural(e.hits, "hit");
    if (e.cast !== undefined) return e.by + " casts " + short(e.cast) + (e.target ? " on " + e.target : "");
    if (e.dispel !== undefined) return e.dispel + " tries Dispel Magic: " + e.die + (e.dispelled ? ", dispelled" : ", fails");
    if (e.retreat !== undefined) return e.retreat + " retreats to " + e.to;
    if (e.eliminated !== undefined) return e.eliminated + " (" + short(e.kind) + ") is eliminated" + (e.cut_off ? ", cut off" : "");
    if (e.won !== undefined) return s(e.by) + " wins the battle at " + cityName(view, e.won);
    if (e["switch"] !== undefined) return s(e["switch"]) + " now " + e.side + "s at " + e.battle;
    if (e.pursuit !== undefined) return (e.pursuit ? "the defender pursues" : "no pursuit") + " at " + e.battle;
    var rest = {};
    Object.keys(e).forEach(function (k) { if (k !== "turn") rest[k] = e[k]; });
    return JSON.stringify(rest);
  }

  function seatFacts(view) {
    var n = view.players, facts = [], board = view.board || {cities: {}};
    for (var s = 0; s < n; s++) facts.push({cities: 0, value: 0, marker: 0, blocks: 0, revealed: 0});
    Object.keys(view.cities || {}).forEach(function (hex) {
      var now = view.cities[hex], city = (board.cities || {})[hex];
      if (typeof now.controller !== "number" || !facts[now.controller]) return;
      facts[now.controller].cities += 1;
      facts[now.controller].value += city ? city.gold : 0;
      facts[now.controller].marker += now.gold || 0;
    });
    (view.blocks || []).forEach(function (b) { if (facts[b.owner]) facts[b.owner].blocks += 1; });
    return facts;
  }

  function drawSeats(parent, view, ctx, box) {
    var facts = seatFacts(view), acting = view.to_act || [], n = view.players;
    var g = panelBox(parent, box, "armies", "wk-seats");
    for (var s = 0; s < n; s++) {
      var y = box.y + 32 + SEAT_H * s, f = facts[s], out = (view.forfeited || []).indexOf(s) >= 0;
      var row = el(g, "g", {"class": "wk-seat" + (acting.indexOf(s) >= 0 ? " acting" : "") + (out ? " out" : ""), "data-seat": s});
      el(row, "circle", {cx: box.x + 15, cy: y - 4, r: 6, fill: colour(s), "class": "seat-dot"});
      var mark = view.mover === s ? " · moves now" : acting.indexOf(s) >= 0 ? " · to act" : "";
      el(row, "text", {x: box.x + 27, y: y, "class": "wk-seat-name"},
         fit(who(view, ctx, s), Math.floor((box.w - 36) / 6.4) - mark.length) + mark + (out ? " · left" : ""));
      var roll = (view.initiative || {})[String(s)];
      var chars = Math.floor((box.w - 36) / 5.6);
      el(row, "text", {x: box.x + 27, y: y + 14, "class": "wk-line"},
         fit(cities(f.cities) + " worth " + f.value + " gold" + (f.marker ? " · " + f.marker + " gold on markers" : ""), chars));
      el(row, "text", {x: box.x + 27, y: y + 28, "class": "wk-line"},
         fit(plural(f.blocks, "block") + (roll !== undefined ? " · initiative " + roll : "") +
             (view.options && view.options.scoring === "accumulated" ? " · " + (view.points || [])[s] + " points" : "") +
             ((view.dead || [])[s] && view.dead[s].length ? " · lost " + view.dead[s].map(short).join(", ") : ""), chars));
    }
    return g;
  }

  function drawResult(parent, view, ctx, box) {
    var g = panelBox(parent, box, "result: " + (view.end_reason || "the match ended"), "wk-result", {"data-reason": view.end_reason || ""});
    var best = Math.max.apply(null, view.scores);
    view.scores.forEach(function (score, s) {
      var y = box.y + 34 + 16 * s;
      el(g, "circle", {cx: box.x + 15, cy: y - 4, r: 5, fill: colour(s), "class": "seat-dot"});
      el(g, "text", {x: box.x + 26, y: y, "class": "wk-line" + (score === best ? " winner" : ""), "data-seat": s},
         fit(who(view, ctx, s), 30) + ": score " + score + (score === best ? " — wins" : ""));
    });
  }

  function drawPanels(svg, view, ctx, top, width) {
    var n = view.players, over = view.phase === "over" && view.scores;
    var colW = (width - 2 * PAD - 16) / 3, boxes = [];
    for (var k = 0; k < 3; k++) boxes.push({x: PAD + k * (colW + 8), y: top, w: colW});
    var b = view.battle, fights = view.fights || {}, fightHexes = Object.keys(fights).sort();
    // Left: the result at the end; the battle under way; the fights still to come.
    var left = [], h1 = 0;
    if (b) left = battleLines(view, ctx, b);
    var later = (view.queue || []).filter(function (h) { return !b || h !== b.hex; });
    var waiting = fightHexes.filter(function (h) { return !b || h !== b.hex; }).map(function (h) {
      var f = fights[h];
      return cityName(view, h) + ": " + tag(f.attacker) + " attacks " + tag(f.defender);
    });
    var leftBox = boxes[0];
    var y = leftBox.y;
    if (over) {
      var rb = {x: leftBox.x, y: y, w: leftBox.w, h: 28 + 16 * n};
      drawResult(svg, view, ctx, rb);
      y += rb.h + 8;
    }
    if (b) {
      var bb = {x: leftBox.x, y: y, w: leftBox.w, h: 26 + 14 * left.length};
      var bg = panelBox(svg, bb, "battle at " + cityName(view, b.hex), "wk-battle-panel", {"data-hex": b.hex, "data-round": b.round});
      lines(bg, bb, left);
      y += bb.h + 8;
    }
    var fl = waiting.length ? waiting : ["none"];
    if (later.length) fl.push("order: " + later.join(", "));
    if (!over || waiting.length) {
      var fb = {x: leftBox.x, y: y, w: leftBox.w, h: 26 + 14 * fl.length};
      var fg = panelBox(svg, fb, b ? "battles still to fight" : "fights to come", "wk-fights-panel");
      lines(fg, fb, fl, waiting.length ? "wk-line" : "wk-empty");
      y += fb.h + 8;
    }
    h1 = y - top;
    // Middle: the seats.
    var sb = {x: boxes[1].x, y: top, w: boxes[1].w, h: 24 + SEAT_H * n};
    drawSeats(svg, view, ctx, sb);
    var h2 = sb.h + 8;
    var draft = view.draft;
    if (draft) {
      var planned = (draft.blocks || []).filter(function (d) { return /^new-/.test(d.id); });
      var gold = Object.keys(draft.gold || {}).map(function (k) { return (k === "purse" ? "purse" : cityName(view, k)) + " " + draft.gold[k]; });
      var db = {x: boxes[1].x, y: top + h2, w: boxes[1].w, h: 54};
      var dg = panelBox(svg, db, "my draft (secret)" + (draft.done ? " · done" : ""), "wk-draft-panel");
      lines(dg, db, [plural(planned.length, "new block") + " planned, " + plural((draft.blocks || []).length, "block") + " in all",
                     "gold left: " + (gold.join(", ") || "none")]);
      h2 += db.h + 8;
    }
    // Right: the public record of this turn.
    var log = view.log || [], turn = view.turn;
    var entries = log.filter(function (e) { return e.turn === turn; });
    if (!entries.length && log.length) { turn = log[log.length - 1].turn; entries = log.filter(function (e) { return e.turn === turn; }); }
    var count = Math.max(6, Math.min(12, Math.floor((Math.max(h1, h2) - 34) / 14)));
    var shown = entries.slice(-count);
    var lb = {x: boxes[2].x, y: top, w: boxes[2].w, h: 26 + 14 * Math.max(1, shown.length)};
    var lg = panelBox(svg, lb, "record of turn " + turn + (entries.length > shown.length ? " (last " + shown.length + ")" : ""), "wk-log",
                      {"data-turn": turn});
    if (!shown.length) lines(lg, lb, ["nothing yet"], "wk-empty");
    shown.forEach(function (e, k) {
      var text = logText(view, ctx, e), chars = Math.floor((lb.w - 18) / 5.3);
      el(lg, "text", {x: lb.x + 9, y: lb.y + 32 + 14 * k, "class": "wk-log-entry"}, fit(text, chars));
    });
    return Math.max(h1, h2, lb.h + 8);
  }

  function drawLegend(svg, y, width) {
    var g = el(svg, "g", {"class": "wk-legend"}), x = PAD;
    TERRAIN_ORDER.forEach(function (t) {
      el(g, "rect", {x: x, y: y - 9, width: 14, height: 11, rx: 2, "class": "wk-swatch " + t});
      if (t !== "clear" && t !== "pass") el(g, "rect", {x: x, y: y - 9, width: 14, height: 11, rx: 2, fill: "url(#wk-pat-" + t + ")", "class": "wk-texture"});
      el(g, "text", {x: x + 18, y: y, "class": "wk-legend-text"}, t);
      x += 26 + t.length * 6.2;
    });
    function sample(cls, label) {
      el(g, "line", {x1: x, y1: y - 4, x2: x + 18, y2: y - 4, "class": cls});
      el(g, "text", {x: x + 22, y: y, "class": "wk-legend-text"}, label);
      x += 30 + label.length * 6.2;
    }
    x += 6;
    sample("wk-shore", "coast");
    sample("wk-river", "river");
    sample("wk-road", "road");
    sample("wk-wall", "wall");
    el(g, "line", {x1: x, y1: y - 4, x2: x + 18, y2: y - 4, "class": "wk-wall"});
    el(g, "line", {x1: x + 5, y1: y - 4, x2: x + 13, y2: y - 4, "class": "wk-gate-sample"});
    el(g, "text", {x: x + 22, y: y, "class": "wk-legend-text"}, "gate");
    x += 52;
    el(g, "line", {x1: x, y1: y - 4, x2: x + 18, y2: y - 4, "class": "wk-river"});
    el(g, "line", {x1: x + 4, y1: y - 4, x2: x + 14, y2: y - 4, "class": "wk-bridge-deck"});
    el(g, "text", {x: x + 22, y: y, "class": "wk-legend-text"}, "bridge");
    x += 60;
    var hg = el(g, "g", {"class": "wk-henge"});
    for (var k = 0; k < 7; k++) {
      var a = Math.PI * 2 * k / 7;
      el(hg, "rect", {x: x + 7 + 6 * Math.cos(a) - 1.5, y: y - 4 + 6 * Math.sin(a) - 2, width: 3, height: 4});
    }
    el(g, "text", {x: x + 18, y: y, "class": "wk-legend-text"}, "henge");
    x += 56;
    if (x > width - 90) { x = PAD; y += 16; }
    el(g, "rect", {x: x, y: y - 10, width: 12, height: 12, rx: 2, fill: "#6b7384", "class": "wk-swatch"});
    el(g, "text", {x: x + 16, y: y, "class": "wk-legend-text"}, "block face down");
    return y;
  }

  renderers["wizard-kings"] = function (svg, view, ctx) {
    var full = view.full_state || null, me = typeof view.seat === "number" ? view.seat : null;
    var over = view.phase === "over", board = view.board, b = view.battle;
    svg.setAttribute("class", "board wizard-kings");
    defs(svg);
    var acting = (view.to_act || []).map(function (s) { return seatName(ctx, s); }).join(", ");
    var title = over ? "match over: " + (view.end_reason || "ended") + " · turn " + view.turn :
      "turn " + view.turn + " · " + (PHASE[view.phase] || view.phase) +
      (typeof view.mover === "number" ? " · " + seatName(ctx, view.mover) + " moves" : acting ? " · " + acting + " to act" : "") +
      (b ? " · battle at " + cityName(view, b.hex) + ", " + (b.round === 4 ? "pursuit" : "round " + b.round) : "");
    var width = board ? 2 * PAD + R * (1.5 * (board.width - 1) + 2) : 700;
    width = Math.max(width, 760);
    el(svg, "text", {x: PAD, y: 18, "class": "title"}, fit(title, Math.floor((width - 160) / 7)));
    el(svg, "text", {x: width - PAD, y: 18, "class": "title perspective"},
       me !== null ? "as " + who(view, ctx, me) : full ? "full state" : "public view");
    if (!board) {
      el(svg, "text", {x: PAD, y: 60, "class": "wk-empty"}, "the maps are not laid yet");
      svg.setAttribute("viewBox", "0 0 " + width + " 80");
      return rows(view, ctx);
    }
    drawMap(svg, view, ctx);
    drawCities(svg, view, ctx);
    // The fights to come and the battle under way.
    var marks = el(svg, "g", {"class": "wk-marks"});
    Object.keys(view.fights || {}).sort().forEach(function (hex) {
      var f = view.fights[hex], c = centre(hex);
      var g = el(marks, "g", {"class": "wk-fight" + (b && b.hex === hex ? " current" : ""), "data-hex": hex,
                              "data-attacker": f.attacker, "data-defender": f.defender});
      el(g, "title", {}, "fight at " + hex + ": " + seatName(ctx, f.attacker) + " attacks " + seatName(ctx, f.defender));
      el(g, "polygon", {points: corners(c, R - 1.5), "class": "wk-fight-ring"});
      el(g, "text", {x: c.x - R * 0.62, y: c.y + HY / 2 - 5, "class": "wk-fight-mark"}, "⚔");
      if (!(b && b.hex === hex)) drawEntries(g, hex, f.entered);
    });
    if (b) {
      var c = centre(b.hex);
      var g = el(marks, "g", {"class": "wk-battle", "data-hex": b.hex, "data-round": b.round, "data-step": b.step});
      el(g, "title", {}, "battle at " + b.hex + ", " + (b.round === 4 ? "pursuit" : "round " + b.round) + ": " + (STEP[b.step] || b.step));
      el(g, "polygon", {points: corners(c, R), "class": "wk-battle-ring"});
      drawEntries(g, b.hex, b.entered);
    }
    // The last move (from the previous frame of this perspective).
    var before = {};
    if (ctx.previous) blockList(ctx.previous).forEach(function (x) { before[x.id] = x.hex; });
    var moves = el(svg, "g", {"class": "wk-moves"});
    // The blocks, hex by hex; a seat's planned new blocks (its secret draft) dashed among them.
    var byHex = {}, list = blockList(view).slice();
    if (view.draft && !full) {
      (view.draft.blocks || []).forEach(function (d) {
        if (/^new-/.test(d.id)) list.push({id: d.id, owner: me, hex: d.hex, kind: d.kind, steps: d.steps, draft: true});
      });
    }
    list.forEach(function (x) {
      if (!x.hex) return;
      (byHex[x.hex] = byHex[x.hex] || []).push(x);
      if (before[x.id] && before[x.id] !== x.hex) {
        var a = centre(before[x.id]), z = centre(x.hex);
        el(moves, "line", {x1: a.x, y1: a.y, x2: z.x, y2: z.y, "class": "wk-last-move", "data-id": x.id});
        el(moves, "circle", {cx: a.x, cy: a.y, r: 4, "class": "wk-last-move-from"});
      }
    });
    var blocks = el(svg, "g", {"class": "wk-blocks"});
    Object.keys(byHex).sort().forEach(function (hex) {
      var items = byHex[hex].sort(function (p, q) { return p.owner - q.owner || (p.id < q.id ? -1 : 1); });
      drawStack(blocks, view, ctx, hex, items, b, !!(board.cities || {})[hex]);   // (a regrouping block may be outside)
    });
    if (b) {   // the round on the battle hex's lower left corner, above its blocks
      var bc = centre(b.hex), label = b.round === 4 ? "P" : "R" + b.round;
      var bt = el(svg, "g", {"class": "wk-battle-round", "data-round": b.round});
      el(bt, "rect", {x: bc.x - R / 2 - 10, y: bc.y + HY / 2 - 8, width: 20, height: 12, rx: 3, "class": "wk-battle-tag"});
      el(bt, "text", {x: bc.x - R / 2, y: bc.y + HY / 2 + 1.5, "class": "wk-battle-tag-text"}, label);
    }
    var bottom = TOP + HY * (board.height + 0.5) + 16;
    bottom = drawLegend(svg, bottom, width) + 12;
    var h = drawPanels(svg, view, ctx, bottom, width);
    svg.setAttribute("viewBox", "0 0 " + width + " " + Math.ceil(bottom + h + 4));
    return rows(view, ctx);
  };

  function rows(view, ctx) {
    var out = [], acting = (view.to_act || []).map(function (s) { return seatName(ctx, s); });
    var limit = view.options ? view.options.turn_limit : null;
    out.push(["turn", view.turn + (limit ? " of " + limit : "")]);
    out.push(["phase", (PHASE[view.phase] || view.phase) + (acting.length ? " (" + acting.join(", ") + " to act)" : "")]);
    if ((view.order || []).length) out.push(["order of play", view.order.map(function (s) { return seatName(ctx, s); }).join(" → ") +
                                             (typeof view.mover === "number" ? "; " + seatName(ctx, view.mover) + " moves" : "")]);
    var ini = Object.keys(view.initiative || {});
    if (ini.length) out.push(["initiative", ini.map(function (k) { return seatName(ctx, seatOf(k)) + " " + view.initiative[k]; }).join(", ")]);
    var facts = seatFacts(view);
    for (var s = 0; s < view.players; s++) {
      var f = facts[s];
      out.push([seatName(ctx, s), ((view.armies || [])[s] || "no army yet") + ", " + cities(f.cities) + " worth " + f.value +
                " gold" + (f.marker ? " (" + f.marker + " gold on their markers)" : "") + ", " + plural(f.blocks, "block") +
                (view.options && view.options.scoring === "accumulated" ? ", " + (view.points || [])[s] + " points" : "") +
                ((view.forfeited || []).indexOf(s) >= 0 ? ", left the match" : "") +
                (view.scores ? ", score " + view.scores[s] : "")]);
    }
    if (view.victory_gold) out.push(["victory", view.victory_gold + " gold of cities at the end of a turn"]);
    if (view.battle) out.push(["battle", cityName(view, view.battle.hex) + ": " + battleLines(view, ctx, view.battle).slice(0, 2).join("; ")]);
    var fights = Object.keys(view.fights || {});
    if (fights.length) out.push(["fights", fights.join(", ")]);
    if (view.scores) out.push(["result", (view.end_reason || "ended") + ", scores " + view.scores.join(", ")]);
    return out;
  }
})();
