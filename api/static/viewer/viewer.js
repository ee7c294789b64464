/* The replay viewer: step through the frames of one match for one perspective.
 * Data comes embedded in the page (#viewer-data, the public perspective) and from frames.json
 * when the perspective changes. Each frame after the first holds only the top-level keys of the
 * view that changed; rebuild() turns them back into whole views once, on load. */
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
  var frames = [];
  var step = 0;

  function rebuild(delta) {
    var views = [], view = null;
    delta.forEach(function (f, i) {
      if (f.view !== undefined) {
        view = f.view;
      } else {
        view = Object.assign({}, view, f.changed || {});
        (f.removed || []).forEach(function (k) { delete view[k]; });
      }
      views.push({seq: f.seq, kind: f.kind, seat: f.seat, text: f.text, view: view});
    });
    return views;
  }

  function fillEvents() {
    list.textContent = "";
    frames.forEach(function (f, i) {
      var li = document.createElement("li");
      li.value = f.seq;
      li.className = "event kind-" + f.kind + (f.seat !== null && f.seat !== undefined ? " seat-" + f.seat : "");
      li.textContent = f.text;
      li.addEventListener("click", function () { show(i); });
      list.appendChild(li);
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

  function show(i) {
    if (!frames.length) return;
    step = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[step];
    slider.value = String(step);
    counter.textContent = "step " + step + " / " + (frames.length - 1);
    var previous = step > 0 ? frames[step - 1].view : null;
    var ctx = {frame: frame, previous: previous, seats: data.seats, perspective: select.value,
               result: data.result};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var draw = window.renderers[data.ruleset] || window.renderers.fallback;
    var rows;
    try {
      rows = draw(svg, frame.view, ctx);
    } catch (err) {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      rows = window.renderers.fallback(svg, frame.view, ctx);
      if (window.console) console.error(err);
    }
    fillInfo(rows);
    raw.textContent = JSON.stringify(frame.view, null, 1);
    var items = list.children;
    for (var k = 0; k < items.length; k++) items[k].classList.toggle("current", k === step);
    if (items[step]) {
      var top = items[step].offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 24) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    root.dataset.step = String(step);
  }

  function load(delta, perspective) {
    frames = rebuild(delta);
    slider.max = String(Math.max(0, frames.length - 1));
    root.dataset.perspective = perspective;
    fillEvents();
    show(Math.min(step, frames.length - 1));
  }

  function switchPerspective() {
    var seat = select.value;
    root.dataset.loading = "1";
    fetch(root.dataset.framesUrl + "?seat=" + encodeURIComponent(seat), {credentials: "same-origin"})
      .then(function (r) {
        if (!r.ok) throw new Error("frames.json: HTTP " + r.status);
        return r.json();
      })
      .then(function (body) { load(body.frames, body.perspective); })
      .catch(function (err) { info.textContent = String(err); })
      .then(function () { delete root.dataset.loading; });
  }

  data.perspectives.forEach(function (p) {
    var option = document.createElement("option");
    option.value = p.value;
    option.textContent = p.label;
    select.appendChild(option);
  });
  select.value = data.perspective;
  select.addEventListener("change", switchPerspective);
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("back").addEventListener("click", function () { show(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { show(frames.length - 1); });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && (t.tagName === "SELECT" || t.tagName === "TEXTAREA" ||
              (t.tagName === "INPUT" && t.type !== "button"))) return;  // they handle their keys
    var moves = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: frames.length - 1,
                 PageDown: step + 10, PageUp: step - 10};
    if (e.key in moves && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      show(moves[e.key]);
    }
  });
  load(data.frames, data.perspective);
  show(0);
  root.dataset.ready = "1";
})();
