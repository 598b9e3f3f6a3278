// The sample index's filter: the manifest (window.frontierSampleIndex) and its parts, each a script loaded only
// when a filter needs its rows: without a text, the parts that fill the first SHOWN matches (the count comes from
// the parts' tallies by task and outcome); with a text, every part holding rows of the task and outcome asked for.
// Every value is untrusted and set as text (textContent, href of a relative page), never as markup.
(function () {
  "use strict";
  var index = window.frontierSampleIndex || { tasks: [], verdicts: [], dirs: [], count: 0, parts: [], shown: 500 };
  var form = document.getElementById("sample-filter");
  var body = document.getElementById("sample-rows");
  var count = document.getElementById("sample-count");
  var SHOWN = index.shown || 500;
  var UNSAFE = /[^a-z0-9._-]+/g;
  var parts = [];
  var waiting = {};
  var generation = 0;
  if (!form || !body || !count) { return; }

  window.frontierSampleIndexPart = function (number, part) {
    parts[number] = part;
    var callbacks = waiting[number] || [];
    delete waiting[number];
    callbacks.forEach(function (done) { done(); });
  };

  function load(number, done) {
    if (parts[number]) { done(); return; }
    if (waiting[number]) { waiting[number].push(done); return; }
    waiting[number] = [done];
    var script = document.createElement("script");
    script.src = index.parts[number].src;
    script.onerror = function () { count.textContent = "part " + (number + 1) + " of the index could not be loaded"; };
    document.head.appendChild(script);
  }

  // The page of row i: the sample's own page, named from its id as leaderboard.views.slug names it.
  function pageOf(part, i) {
    var key = String(part.page[i]);
    var stem = key;
    if (key.length === 10) {
      var readable = String(part.id[i]).toLowerCase().replace(UNSAFE, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 48);
      stem = (readable || "x") + "-" + key;
    }
    return index.dirs[part.task[i]] + "/" + stem + ".html";
  }

  function wanted(task, verdict, taskCode, verdictCode) {
    return (task === "" || String(taskCode) === task) && (verdict === "" || index.verdicts[verdictCode] === verdict);
  }

  function tallied(meta, task, verdict) {
    return meta.tally.reduce(function (sum, t) { return sum + (wanted(task, verdict, t[0], t[1]) ? t[2] : 0); }, 0);
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function row(part, i) {
    var tr = document.createElement("tr");
    tr.className = "verdict-" + index.verdicts[part.verdict[i]];
    cell(tr, index.tasks[part.task[i]]);
    var link = document.createElement("a");
    link.textContent = part.id[i];
    link.setAttribute("href", pageOf(part, i));
    cell(tr, "").appendChild(link);
    cell(tr, index.verdicts[part.verdict[i]]);
    cell(tr, part.score[i] === null ? "–" : String(part.score[i]));
    return tr;
  }

  function render() {
    var run = ++generation;
    var verdict = form.elements.verdict.value;
    var task = form.elements.task.value;
    var text = form.elements.text.value.toLowerCase();
    var counted = text ? null : index.parts.reduce(function (sum, m) { return sum + tallied(m, task, verdict); }, 0);
    var matched = 0;
    var read = 0;
    var number = 0;
    body.replaceChildren();

    function matches(part, i) {
      if (!wanted(task, verdict, part.task[i], part.verdict[i])) { return false; }
      if (!text) { return true; }
      var haystack = [part.id[i], part.texts[part.output[i]], part.texts[part.reason[i]]].join(" ").toLowerCase();
      return haystack.indexOf(text) >= 0;
    }

    function say(done) {
      var total = counted === null ? matched : counted;
      var words = (done || counted !== null ? "" : "at least ") + total + " of " + index.count + " sample(s) match";
      if (total > SHOWN) { words += "; the first " + SHOWN + " are listed"; }
      if (!done) { words += " (" + read + " of " + index.parts.length + " parts of the index read)"; }
      count.textContent = words;
    }

    function next() {
      if (run !== generation) { return; }
      while (number < index.parts.length && tallied(index.parts[number], task, verdict) === 0) { number += 1; }
      var listedAll = counted !== null && Math.min(matched, SHOWN) >= Math.min(counted, SHOWN);
      if (number >= index.parts.length || listedAll) { say(true); return; }
      say(false);
      load(number, function () {
        if (run !== generation) { return; }
        var part = parts[number];
        var fragment = document.createDocumentFragment();
        for (var i = 0; i < part.id.length; i += 1) {
          if (matches(part, i)) {
            matched += 1;
            if (matched <= SHOWN) { fragment.appendChild(row(part, i)); }
          }
        }
        body.appendChild(fragment);
        read += 1;
        number += 1;
        next();
      });
    }

    next();
  }

  form.addEventListener("input", render);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  render();
})();
