/* Playing a seat in person (docs/play.md): the viewer of the match shows the seat's own view
 * (its perspective, as viewer.js draws it); this script asks the remote seats' long poll for the
 * seat's acts (GET data.play.next_url, the site's session), offers the act's legal actions in a
 * picker built from their documented fields, and sends the one chosen to the answer endpoint
 * (POST data.play.act_url with the session's CSRF token): the same path as a remote client's,
 * under the same clock.
 *
 * The picker: an action is a JSON object {"type": ..., field: value, ...}; one select per field
 * in the order the fields first appear, each offering the values the actions still possible
 * after the earlier choices have (a field an action lacks reads "(none)"). When one action is
 * left it can be sent. Where the board makes it natural, a click on the board chooses too
 * (BOARD_PICKS: Trap the Wizard's fields choose the "to" of a move, Sorcado's slots the "slot"
 * of a placement, Wizard Kings' hexes the "to" of a move, regroup or retreat and the "hex" of a
 * placement, recruit or capital: a board element's attribute names the value, whose JSON type
 * is the one the legal actions carry, e.g. the hex "0302" stays a string).
 *
 * #play tells what it is doing: data-state (waiting, choose, sending, over), data-turn (the
 * turn offered) and data-pinned (the field a click on the board chose, while it holds). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viewer-data").textContent);
  var play = data.play;
  if (!play) return;
  var WAIT_SECONDS = 25;
  var BOARD_PICKS = {"trap-the-wizard": [{attribute: "data-field", key: "to"}],
                     "sorcado": [{attribute: "data-slot", key: "slot"}],
                     "wizard-kings": [{attribute: "data-hex", key: "to"}, {attribute: "data-hex", key: "hex"}]};
  var ABSENT = "\u0000absent";
  var box = document.getElementById("play");
  var statusText = document.getElementById("play-status");
  var clock = document.getElementById("play-clock");
  var picker = document.getElementById("play-picker");
  var fields = document.getElementById("play-fields");
  var countText = document.getElementById("play-count");
  var send = document.getElementById("play-send");
  var root = document.getElementById("viewer");
  var svg = document.getElementById("board");
  var act = null;         // the act offered
  var answered = {};      // turns answered from this page
  var pinned = {};        // choices made on the board: key -> canonical value
  var chosen = [];        // the picker's choices: [key, canonical value] in field order
  var deadline = 0;       // Date.now() at which the act's time runs out
  var skew = 0;           // the server's clock minus this browser's (from the Date header)

  function canon(value) { return value === undefined ? ABSENT : JSON.stringify(value); }
  function label(value) {
    if (value === undefined) return "(none)";
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  function over() { return (root.dataset.status || data.status) !== "running"; }
  function setState(state) { box.dataset.state = state; }

  function keysOf(actions) {
    var keys = [];
    actions.forEach(function (a) {
      if (a && typeof a === "object" && !Array.isArray(a)) {
        Object.keys(a).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); });
      }
    });
    var t = keys.indexOf("type");
    if (t > 0) { keys.splice(t, 1); keys.unshift("type"); }
    return keys;
  }

  function value(action, key) {
    return action && typeof action === "object" && !Array.isArray(action) ? action[key] : undefined;
  }

  /* The legal actions the board's clicks leave. */
  function offered() {
    return act.legal_actions.filter(function (a) {
      return Object.keys(pinned).every(function (k) { return canon(value(a, k)) === pinned[k]; });
    });
  }

  /* Draw the selects for the actions still possible; true when exactly one is left. */
  function drawPicker() {
    var actions = offered(), keys = keysOf(actions);
    fields.textContent = "";
    var left = actions, kept = [];
    keys.forEach(function (key, index) {
      var values = [], seen = {};
      left.forEach(function (a) {
        var v = value(a, key), c = canon(v);
        if (!seen[c]) { seen[c] = true; values.push(v); }
      });
      var choice = chosen.filter(function (pair) { return pair[0] === key; })[0];
      var current = choice && seen[choice[1]] ? choice[1] : values.length === 1 ? canon(values[0]) : "";
      if (current) kept.push([key, current]);
      var p = document.createElement("p");
      var id = "play-field-" + index;
      var name = document.createElement("label");
      name.htmlFor = id;
      name.textContent = key;
      var select = document.createElement("select");
      select.id = id;
      select.dataset.key = key;
      select.className = current ? "chosen" : "open";
      if (!current) {
        var none = document.createElement("option");
        none.value = "";
        none.textContent = "choose (" + values.length + ")";
        select.appendChild(none);
      }
      values.forEach(function (v) {
        var option = document.createElement("option");
        option.value = canon(v);
        option.textContent = label(v);
        select.appendChild(option);
      });
      select.value = current;
      select.addEventListener("change", function () { choose(key, select.value); });
      p.appendChild(name);
      p.appendChild(document.createTextNode(" "));
      p.appendChild(select);
      fields.appendChild(p);
      if (current) left = left.filter(function (a) { return canon(value(a, key)) === current; });
    });
    chosen = kept;
    countText.textContent = actions.length + " of " + act.legal_actions.length + " legal actions" +
      (Object.keys(pinned).length ? " (chosen on the board)" : "") + "; " +
      (left.length === 1 ? "one chosen" : left.length + " still possible");
    send.disabled = left.length !== 1;
    markBoard(actions);
    return left.length === 1 ? left[0] : null;
  }

  function choose(key, canonical) {
    var keys = keysOf(offered()), at = keys.indexOf(key);
    chosen = chosen.filter(function (pair) { return keys.indexOf(pair[0]) < at; });
    if (canonical) chosen.push([key, canonical]);
    drawPicker();
  }

  function chosenAction() {
    var left = offered();
    chosen.forEach(function (pair) {
      left = left.filter(function (a) { return canon(value(a, pair[0])) === pair[1]; });
    });
    return left.length === 1 ? left[0] : null;
  }

  /* -- the board: where a click chooses ------------------------------------------------------- */
  var boardTargets = [];  // per pick of the game: {attribute text: the value the actions carry}
  function markBoard(actions) {
    var picks = BOARD_PICKS[data.ruleset];
    if (!picks) return;
    boardTargets = picks.map(function (pick) {
      var targets = {};
      (actions || []).forEach(function (a) {
        var v = value(a, pick.key);
        if (v !== undefined && v !== null && typeof v !== "object") targets[String(v)] = v;
      });
      return targets;
    });
    picks.forEach(function (pick) {
      Array.prototype.forEach.call(svg.querySelectorAll("[" + pick.attribute + "]"), function (node) {
        node.classList.toggle("pickable", act !== null && boardChoice(node) !== null);
      });
    });
  }

  /* The first pick of the game whose attribute ``node`` has and whose value an action offers. */
  function boardChoice(node) {
    var picks = BOARD_PICKS[data.ruleset] || [];
    for (var i = 0; i < picks.length; i++) {
      var raw = node.getAttribute(picks[i].attribute);
      var targets = boardTargets[i] || {};
      if (raw !== null && Object.prototype.hasOwnProperty.call(targets, raw)) {
        return {key: picks[i].key, value: targets[raw]};
      }
    }
    return null;
  }

  svg.addEventListener("click", function (e) {
    var picks = BOARD_PICKS[data.ruleset];
    if (!picks || !act) return;
    var selector = picks.map(function (pick) { return "[" + pick.attribute + "]"; }).join(",");
    var node = e.target.closest ? e.target.closest(selector) : null;
    var choice = node && node.classList.contains("pickable") ? boardChoice(node) : null;
    if (!choice) return;
    pinned = {};
    pinned[choice.key] = canon(choice.value);
    box.dataset.pinned = choice.key;
    chosen = [];
    drawPicker();
  });
  // viewer.js redraws the board at each new step: mark the targets again.
  new MutationObserver(function () { if (act) markBoard(offered()); }).observe(svg, {childList: true});

  /* -- the act: offered, answered -------------------------------------------------------------- */
  function offer(message) {
    act = message;
    pinned = {};
    delete box.dataset.pinned;
    chosen = [];
    deadline = Date.parse(message.deadline) - skew;
    box.dataset.turn = String(message.turn);
    picker.hidden = false;
    statusText.textContent = "Your move (turn " + message.turn + "): choose one of the legal actions.";
    setState("choose");
    drawPicker();
    tick();
  }

  function withdraw(text) {
    act = null;
    picker.hidden = true;
    markBoard([]);
    statusText.textContent = text;
  }

  function tick() {
    if (!act) { clock.textContent = "–"; return; }
    var left = Math.max(0, deadline - Date.now()), seconds = Math.ceil(left / 1000);
    clock.textContent = Math.floor(seconds / 60) + ":" + ("0" + seconds % 60).slice(-2);
    clock.className = seconds <= 10 ? "low" : "";
  }
  window.setInterval(tick, 250);

  picker.addEventListener("submit", function (e) {
    e.preventDefault();
    var action = chosenAction();
    if (!act || action === null) return;
    var turn = act.turn;
    setState("sending");
    send.disabled = true;
    fetch(play.act_url, {method: "POST", credentials: "same-origin",
                         headers: {"Content-Type": "application/json", "X-CSRFToken": play.csrf},
                         body: JSON.stringify({turn: turn, action: action})})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (answer) {
        if (answer.ok) {
          answered[turn] = true;
          withdraw("Sent (" + (answer.body.elapsed_ms / 1000).toFixed(1) + " s on your clock). Waiting for your turn…");
          setState("waiting");
          poll();
          return;
        }
        var error = answer.body.error || {};
        if (["late", "match_over", "already_answered", "wrong_turn"].indexOf(error.code) >= 0) {
          answered[turn] = true;
          withdraw("Not taken: " + error.detail);
          setState("waiting");
          poll();
        } else {
          statusText.textContent = "Not taken: " + (error.detail || "HTTP error");
          setState("choose");
          drawPicker();
        }
      })
      .catch(function (err) {
        statusText.textContent = "Not sent: " + err + " (try again)";
        setState("choose");
        drawPicker();
      });
  });

  document.getElementById("play-clear").addEventListener("click", function () {
    pinned = {};
    delete box.dataset.pinned;
    chosen = [];
    drawPicker();
  });

  function finish() {
    withdraw("The match is over: the result is above, and the replay is this page.");
    setState("over");
  }

  /* The long poll for this seat's next act, until the match is over. */
  function poll() {
    if (over()) { finish(); return; }
    fetch(play.next_url + "?wait=" + WAIT_SECONDS, {credentials: "same-origin", headers: {Accept: "application/json"}})
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        var date = Date.parse(r.headers.get("Date") || "");
        if (!isNaN(date) && Math.abs(date - Date.now()) > 3000) skew = date - Date.now();
        return r.json();
      })
      .then(function (body) {
        var mine = body.acts.filter(function (a) {
          return a.match === data.match && a.seat === play.seat && !answered[a.turn];
        });
        if (mine.length) { offer(mine[0]); return; }
        // Acts of other seats of yours (another match): ask again, a little later.
        window.setTimeout(poll, body.acts.length ? 1000 : 0);
      })
      .catch(function (err) {
        statusText.textContent = "Cannot reach the server (" + err + "): trying again…";
        window.setTimeout(poll, 2000);
      });
  }

  // The match may end while nothing is asked of this seat: viewer.js notes it on #viewer.
  new MutationObserver(function () {
    if (over() && box.dataset.state !== "over") finish();
  }).observe(root, {attributes: true, attributeFilter: ["data-status"]});

  if (over()) finish();
  else poll();
})();
