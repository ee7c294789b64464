/* The replay viewer: step through the frames of one match for one perspective.
 * The page embeds the match's envelope and its first page of public frames (#viewer-data);
 * further pages come from frames.json (?seat=&from=&count=, data.page_frames steps each), fetched
 * for the step shown and the pages either side of it, so stepping stays instant and nothing
 * grows with the length of the match. A page holds the view before its first step ("base") and
 * one patch per step; applyPatch() turns them into whole views once, when the page arrives.
 *
 * The URL names the step and the perspective (?step=&seat=, as the page was opened with them):
 * history.replaceState keeps both in it as the user steps, so a link opens what is shown.
 * While the match runs the viewer asks frames.json every data.poll_ms for the steps past its
 * head; a viewer at the last step follows each new one, and at the end the result shows and
 * every perspective opens. Following is a state of its own (``following``: the step asked for
 * was the last known), not a comparison made when a poll answers: any page (a prefetched one
 * too) may raise the step count, and a viewer that compared the step with a count raised
 * meanwhile by a prefetch stopped following (seen stuck at step 119 of 197).
 *
 * The root element tells what is on the board: data-step (the step drawn), data-perspective,
 * data-status (the match's, as last heard), data-steps (steps known), data-loading (while the
 * step asked for is on its way), data-ready (after the first draw) with data-ready-ms
 * (performance.now() then: milliseconds since navigation) and data-step-ms (how long the last
 * step took from being asked for to being drawn). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("viewer-data").textContent);
  var root = document.getElementById("viewer");
  var svg = document.getElementById("board");
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var select = document.getElementById("perspective");
  var list = document.getElementById("events");
  var info = document.getElementById("info");
  var raw = document.getElementById("raw");
  var notices = document.getElementById("notices");
  var status = data.status;
  var PAGE = data.page_frames;
  var count = data.events;   // steps of the match (a live match's grows with each page fetched)
  var step = 0;              // the step asked for; the board shows it once its page is here
  var following = false;     // the step asked for was the last one known: go on to each new one
  var askedAt = 0;
  var store = null;          // the pages of the selected perspective: {perspective, pages, pending}
  var listed = "";           // which pages the event list shows
  var current = null;        // the event list's item of the step drawn

  /* A copy of ``view`` with the patch's operations applied (view_patch in web/pages.py): only the
   * objects on the path of an operation are copied, so the views of a page share the rest. */
  function applyPatch(view, ops) {
    var top = {v: view}, fresh = [top];
    function own(node) {
      if (fresh.indexOf(node) >= 0) return node;
      var copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
      fresh.push(copy);
      return copy;
    }
    ops.forEach(function (op) {
      var path = ["v"].concat(op.at), node = top;
      for (var k = 0; k < path.length - 1; k++) node = node[path[k]] = own(node[path[k]]);
      var key = path[path.length - 1];
      if (op.del) delete node[key];
      else if (op.add) node[key] = node[key].concat(op.add);
      else node[key] = op.set;
    });
    return top.v;
  }

  function pageOf(i) { return Math.floor(i / PAGE); }

  function addPage(into, body) {
    var view = body.base;
    var frames = body.frames.map(function (f) {
      view = f.view !== undefined ? f.view : applyPatch(view, f.patch);
      return {seq: f.seq, kind: f.kind, seat: f.seat, text: f.text, view: view};
    });
    into.pages[pageOf(body.from)] = {base: body.base, frames: frames};
    if (body.events > count) {
      count = body.events;
      slider.max = String(Math.max(0, count - 1));
      counter.textContent = "step " + step + " / " + (count - 1);
      root.dataset.steps = String(count);
    }
  }

  /* After a page of the selected perspective arrived: on to the last step when following, else
   * draw what it brought for the step shown. */
  function landed() {
    if (following && step < count - 1) show(count - 1);
    else arrived();
  }

  function frameAt(i) {
    var page = store.pages[pageOf(i)];
    return page ? page.frames[i - pageOf(i) * PAGE] : undefined;
  }

  function previousView(i) {
    var page = store.pages[pageOf(i)], k = i - pageOf(i) * PAGE;
    return k > 0 ? page.frames[k - 1].view : page.base;
  }

  /* Fetch page ``number`` of the selected perspective unless it is here whole or on its way. */
  function want(number) {
    var into = store;
    if (number < 0 || number * PAGE >= count || into.pending[number]) return;
    var page = into.pages[number];
    if (page && (page.frames.length === PAGE || number * PAGE + page.frames.length >= count)) return;
    var mine = window.AbortController ? new AbortController() : {};
    into.pending[number] = mine;
    function done() { if (into.pending[number] === mine) delete into.pending[number]; }
    var url = data.frames_url + "&seat=" + encodeURIComponent(into.perspective) +
              "&from=" + number * PAGE + "&count=" + PAGE;
    fetch(url, {credentials: "same-origin", signal: mine.signal})
      .then(function (r) {
        if (!r.ok) throw new Error("frames.json: HTTP " + r.status);
        return r.json();
      })
      .then(function (body) {
        done();
        addPage(into, body);
        if (into === store) landed();
      })
      .catch(function (err) {
        done();
        if (err.name === "AbortError" || into !== store) return;
        info.textContent = String(err);
        delete root.dataset.loading;
      });
  }

  /* Forget a page on its way (and stop its request where the browser can). */
  function drop(from, key) {
    var fetching = from.pending[key];
    delete from.pending[key];
    if (fetching.abort) fetching.abort();
  }

  /* The page of the step asked for and one either side; pages further away that are still on
   * their way are dropped (a slider dragged across a long match asks for many). */
  function prefetch() {
    var here = pageOf(step);
    Object.keys(store.pending).forEach(function (key) {
      if (Math.abs(parseInt(key, 10) - here) > 1) drop(store, key);
    });
    want(here);
    want(here + 1);
    want(here - 1);
  }

  function arrived() {
    if (frameAt(step) && (String(step) !== root.dataset.step ||
                          root.dataset.perspective !== store.perspective)) {
      draw();
    } else {
      fillEvents();
      markEvent();
    }
  }

  /* The events of the pages of the step asked for and either side of it, as far as they are here. */
  function fillEvents() {
    var here = pageOf(step), numbers = [here - 1, here, here + 1].filter(function (n) {
      return store.pages[n];
    });
    var key = store.perspective + ":" + numbers.map(function (n) {
      return n + "/" + store.pages[n].frames.length;
    }).join(",");
    if (key === listed) return;
    listed = key;
    list.textContent = "";
    current = null;
    numbers.forEach(function (n) {
      store.pages[n].frames.forEach(function (f) {
        var li = document.createElement("li");
        li.value = f.seq;
        li.className = "event kind-" + f.kind + (f.seat !== null && f.seat !== undefined ? " seat-" + f.seat : "");
        li.textContent = f.text;
        li.dataset.seq = String(f.seq);
        li.addEventListener("click", function () { show(f.seq); });
        list.appendChild(li);
      });
    });
  }

  function fillInfo(rows) {
    info.textContent = "";
    if (!rows || !rows.length) return;
    var table = document.createElement("table");
    rows.forEach(function (row) {
      var tr = table.insertRow();
      var th = document.createElement("th");
      th.textContent = row[0];
      tr.appendChild(th);
      tr.insertCell().textContent = row[1];
    });
    info.appendChild(table);
  }

  function markEvent() {
    if (current) current.classList.remove("current");
    current = list.querySelector("li[data-seq='" + step + "']");
    if (!current) return;
    current.classList.add("current");
    var top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  /* Draw the step asked for, whose frame is here. */
  function draw() {
    var frame = frameAt(step);
    var ctx = {frame: frame, previous: step > 0 ? previousView(step) : null, seats: data.seats,
               perspective: store.perspective, result: data.result, cards: data.cards || {}};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var render = window.renderers[data.ruleset] || window.renderers.fallback;
    var rows;
    try {
      rows = render(svg, frame.view, ctx);
    } catch (err) {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      rows = window.renderers.fallback(svg, frame.view, ctx);
      if (window.console) console.error(err);
    }
    fillInfo(rows);
    raw.textContent = JSON.stringify(frame.view, null, 1);
    fillEvents();
    markEvent();
    root.dataset.step = String(step);
    root.dataset.perspective = store.perspective;
    root.dataset.stepMs = String(Math.round(performance.now() - askedAt));
    delete root.dataset.loading;
  }

  /* Ask for step ``i``: drawn now if its page is here, else when it arrives. */
  function show(i) {
    if (!count) return;
    askedAt = performance.now();
    following = status === "running" && i >= count - 1;
    step = Math.max(0, Math.min(count - 1, i));
    slider.value = String(step);
    counter.textContent = "step " + step + " / " + (count - 1);
    keepInUrl();
    if (frameAt(step)) draw();
    else root.dataset.loading = "1";
    prefetch();
  }

  /* The step and perspective shown, in the URL (no new history entry a step). */
  function keepInUrl() {
    var params = new URLSearchParams(window.location.search);
    params.set("step", String(step));
    params.set("seat", store.perspective);
    var url = window.location.pathname + "?" + params.toString() + window.location.hash;
    if (url !== window.location.pathname + window.location.search + window.location.hash) {
      window.history.replaceState(window.history.state, "", url);
    }
  }

  function notice(text) {
    var p = document.createElement("p");
    p.className = "notice";
    p.textContent = text;
    notices.appendChild(p);
  }

  function ordinal(n) {
    var tens = n % 100, unit = n % 10;
    if (tens < 11 || tens > 13) {
      if (unit === 1) return n + "st";
      if (unit === 2) return n + "nd";
      if (unit === 3) return n + "rd";
    }
    return n + "th";
  }

  /* The result under the title: each seat's placing and score. */
  function showResult() {
    var result = document.getElementById("result"), r = data.result;
    if (!r || !r.placings) { result.hidden = true; return; }
    result.textContent = "result: " + r.placings.map(function (place, seat) {
      return (data.seats[seat] || "seat " + seat) + " " + ordinal(place) +
        (r.scores && r.scores[seat] !== undefined ? " (score " + r.scores[seat] + ")" : "");
    }).join(" · ");
    result.hidden = false;
  }

  function showStatus() {
    var badge = document.getElementById("status");
    badge.textContent = status;
    badge.className = "status status-" + status;
    root.dataset.status = status;
    document.getElementById("live").hidden = status !== "running";
  }

  /* The match ended while it was followed: its status and result, and every perspective. */
  function ended(body) {
    status = body.status;
    data.result = body.result;
    showStatus();
    showResult();
    var have = {};
    Array.prototype.forEach.call(select.options, function (o) { have[o.value] = true; });
    var opened = data.every_perspective.filter(function (p) { return !have[p.value]; });
    opened.forEach(addChoice);
    select.value = store.perspective;
    notice("The match is over" + (opened.length ? ": every perspective is open now." : "."));
  }

  /* Ask for the page past the last step known (it may be the last page, not yet whole). */
  function poll() {
    var into = store;
    var url = data.frames_url + "&seat=" + encodeURIComponent(into.perspective) +
              "&from=" + pageOf(count) * PAGE + "&count=" + PAGE;
    fetch(url, {credentials: "same-origin"})
      .then(function (r) {
        if (!r.ok) throw new Error("frames.json: HTTP " + r.status);
        return r.json();
      })
      .then(function (body) {
        if (into !== store) return;  // another perspective since: its own pages come anew
        if (body.frames.length) addPage(into, body);
        if (body.status !== "running") ended(body);
        landed();
      })
      .catch(function (err) { info.textContent = String(err); })
      .then(function () { if (status === "running") window.setTimeout(poll, data.poll_ms); });
  }

  function switchPerspective() {
    Object.keys(store.pending).forEach(function (key) { drop(store, key); });
    store = {perspective: select.value, pages: {}, pending: {}};
    show(step);
  }

  function addChoice(p) {
    var option = document.createElement("option");
    option.value = p.value;
    option.textContent = p.label;
    select.appendChild(option);
  }
  data.perspectives.forEach(addChoice);
  select.value = data.perspective;
  select.addEventListener("change", switchPerspective);
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { show(count - 1); });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && (t.tagName === "SELECT" || t.tagName === "TEXTAREA" ||
              (t.tagName === "INPUT" && t.type !== "button"))) return;  // they handle their keys
    var moves = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: count - 1,
                 PageDown: step + 10, PageUp: step - 10};
    if (e.key in moves && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      show(moves[e.key]);
    }
  });
  store = {perspective: data.perspective, pages: {}, pending: {}};
  addPage(store, data.first_page);
  slider.max = String(Math.max(0, count - 1));
  root.dataset.steps = String(count);
  if (window.renderers.legend) window.renderers.legend(document.getElementById("legend"), data.ruleset);
  showStatus();
  showResult();
  show(data.step || 0);
  root.dataset.perspective = store.perspective;
  if (status === "running") window.setTimeout(poll, data.poll_ms);
  root.dataset.ready = "1";
  root.dataset.readyMs = String(Math.round(performance.now()));
})();
