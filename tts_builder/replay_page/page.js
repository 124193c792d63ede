// tts-builder replay: draws positions that Python computed (the data block above); no network.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var total = D.steps.length;          // positions 0 (the start) .. total
  var at = 0;
  var list = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function img(key, alt) {
    var i = el("img");
    i.src = D.images[key];
    i.alt = alt;
    i.title = alt;
    return i;
  }
  function seat(s) {
    return (typeof s === "number" && D.seats[s] !== undefined) ? D.seats[s] : "Seat " + s;
  }
  function viewAt(n) { return D.views[Math.min(n, D.views.length - 1)]; }

  function drawZone(zone, turn, mover) {
    var box = el("div", "zone" + (zone.seat !== null && zone.seat === turn ? " mine" : "") +
      (zone.seat !== null && zone.seat === mover ? " mover" : ""));
    var cards = zone.cards || [];
    var label = (typeof zone.seat === "number" ? seat(zone.seat) + ": " : "") + zone.label;
    box.appendChild(el("div", "zlabel", label + (zone.face_down ? " (face down)" : "") +
      " \u2014 " + cards.length + (cards.length === 1 ? " card" : " cards")));
    var row = el("div", "cards");
    if (!cards.length) row.appendChild(el("span", "empty", "empty"));
    if (zone.face_down && cards.length > 1) {   // a pile: its back once, the order in the tooltip
      var back = D.backs[cards[0]];
      var pile = back ? img(back, cards.join(", ")) : el("span", "name", cards[0]);
      pile.title = "In order: " + cards.join(", ");
      row.appendChild(pile);
      row.appendChild(el("span", "count", "\u00d7 " + cards.length + " (top first: " + cards.slice(0, 3).join(", ") + "\u2026)"));
    } else {
      cards.forEach(function (c, i) {
        var key = zone.face_down ? (D.backs[c] || D.cards[c]) : D.cards[c];
        var node = key ? img(key, c) : el("span", "name", c);
        if (key && !zone.face_down && D.full[c]) {  // a click shows the card whole
          node.classList.add("zoomable");
          node.tabIndex = 0;
          node.addEventListener("click", function () { zoom(c, zone.turned && zone.turned[i]); });
          node.addEventListener("keydown", function (e) { if (e.key === "Enter") zoom(c, zone.turned && zone.turned[i]); });
        }
        if (zone.turned && zone.turned[i]) {
          node.classList.add("turned");
          node.title = c + " (upside down)";
        }
        row.appendChild(node);
      });
    }
    box.appendChild(row);
    return box;
  }

  function zoom(card, turned) {
    var box = document.getElementById("zoom");
    box.textContent = "";
    var big = img(D.full[card], card);
    if (turned) big.classList.add("turned");
    box.appendChild(big);
    box.appendChild(el("p", "", card + (turned ? " (upside down)" : "") + " \u2014 click or Esc to close"));
    box.hidden = false;
  }

  function drawBoard(b) {
    var art = D.boards[b.name];
    var box = el("div", "board");
    box.dataset.board = b.name;
    if (!art) {  // no picture for it: its cells as words
      box.appendChild(el("div", "zlabel", b.name + ": " + Object.keys(b.cells).map(function (id) {
        var c = b.cells[id]; return id + " " + (c.piece || c.card || c.text);
      }).join(", ")));
      return box;
    }
    box.style.width = art.width + "px";
    box.style.maxWidth = "100%";
    box.style.aspectRatio = art.width + " / " + art.height;
    var bi = img(art.image, art.label);
    bi.className = "board-img";
    box.appendChild(bi);
    box.appendChild(el("span", "label", art.label));
    Object.keys(b.cells).forEach(function (id) {
      var c = b.cells[id], at = art.cells[id];
      if (!at) return;
      var cardHere = c.card && D.cards[c.card];
      var node;
      if (c.piece && D.pieces[c.piece]) {
        var faces = D.pieces[c.piece].faces;
        node = img(faces[Math.min(c.face || 0, faces.length - 1)], D.pieces[c.piece].name + " (" + c.piece + ") on " + id);
        node.className = "piece";
        node.style.width = node.style.height = (art.cell * 100 * 0.85) + "%";
        node.style.height = "auto";
      } else if (c.card && D.cards[c.card]) {
        node = img(D.cards[c.card], c.card + " on " + id);
        node.className = "card zoomable";
        node.addEventListener("click", function () { zoom(c.card, false); });
        node.style.width = (art.cell * 100 * 0.66) + "%";
      } else {
        node = el("span", "chip", c.piece || c.card || c.text);
      }
      node.style.left = (at[0] * 100) + "%";
      node.style.top = (at[1] * 100) + "%";
      node.dataset.cell = id;
      box.appendChild(node);
    });
    return box;
  }

  function drawTable(view, mover) {
    var t = document.getElementById("table");
    t.textContent = "";
    var facts = el("div", "facts");
    facts.appendChild(el("span", "turn", view.turn === null ? "Nobody to decide" : "To decide: " + seat(view.turn)));
    if (view.scores) {
      facts.appendChild(el("span", "scores", (D.scores_label || "Scores") + ": " + view.scores.map(function (v, s) { return seat(s) + " " + v; }).join(", ")));
    }
    (view.seats || []).forEach(function (fact, s) { if (fact) facts.appendChild(el("span", "seat", seat(s) + ": " + fact)); });
    (view.lines || []).forEach(function (line) { facts.appendChild(el("span", "", line)); });
    t.appendChild(facts);
    if (view.boards && view.boards.length) {
      var bs = el("div", "boards");
      view.boards.forEach(function (b) { bs.appendChild(drawBoard(b)); });
      t.appendChild(bs);
    }
    (view.zones || []).forEach(function (z) { t.appendChild(drawZone(z, view.turn, mover)); });
  }

  function show(n, fromHash) {
    at = Math.max(0, Math.min(total, n));
    var step = at > 0 ? D.steps[at - 1] : null;
    drawTable(viewAt(at), step && !step.ok ? step.player : null);
    document.getElementById("slider").value = String(at);
    document.getElementById("position").textContent = at === 0 ? "Start (move 0 of " + total + ")" : "Move " + at + " of " + total;
    document.getElementById("move-text").textContent = step ? step.number + ". " + step.text +
      (step.events && step.events.length ? " \u2014 " + step.events.join("; ") : "") : "The start: no move made yet.";
    var rule = document.getElementById("rule");
    if (step && !step.ok) {
      rule.hidden = false;
      rule.className = "highlight";
      rule.textContent = "";
      rule.appendChild(document.createTextNode("Illegal move, refused under rule "));
      rule.appendChild(el("span", "rule-id", step.rule));
      rule.appendChild(document.createTextNode((step.section ? " (" + step.section + ")" : "") + ": " + step.message +
        (step.penalty ? " Penalty: " + step.penalty + "." : "") + " The table shows the position it was judged on."));
    } else if (at === total && D.violations.length && D.violations[0].move === null) {
      var v = D.violations[0];   // the moves were legal; the recorded result or settings were not
      rule.hidden = false;
      rule.className = "highlight";
      rule.textContent = "";
      rule.appendChild(document.createTextNode("Refused under rule "));
      rule.appendChild(el("span", "rule-id", v.rule));
      rule.appendChild(document.createTextNode((v.field ? " (field " + v.field + ")" : "") + ": " + v.message));
    } else {
      rule.hidden = true;
      rule.className = "";
    }
    var result = document.getElementById("result");
    if (at === total) {
      result.hidden = false;
      result.textContent = D.result && D.verdict === "legal" ? "Result: " + D.result :
        (D.verdict === "illegal" ? "Verdict: " + D.summary : "Unfinished: no result yet. " + D.summary);
      if (D.result_lines && D.result_lines.length && D.verdict === "legal") {
        var more = el("ul", "result-lines");
        D.result_lines.forEach(function (line) { more.appendChild(el("li", "", line.trim())); });
        result.appendChild(more);
      }
    } else {
      result.hidden = true;
    }
    var items = document.querySelectorAll("#moves li");
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", i === at - 1);
      items[i].classList.toggle("future", i >= at);
    }
    var aside = list.parentNode, cur = items[at - 1];   // the aside is positioned: offsetTop is within it
    if (cur && (cur.offsetTop < aside.scrollTop || cur.offsetTop + cur.offsetHeight > aside.scrollTop + aside.clientHeight)) {
      aside.scrollTop = Math.max(0, cur.offsetTop - aside.clientHeight / 2);
    } else if (!cur) {
      aside.scrollTop = 0;
    }
    document.getElementById("first").disabled = document.getElementById("back").disabled = at === 0;
    document.getElementById("forward").disabled = document.getElementById("last").disabled = at === total;
    // the address always names the position shown (#move=999 of a 40-move game becomes #move=40)
    if (location.hash !== "#move=" + at && (!fromHash || location.hash !== "")) history.replaceState(null, "", "#move=" + at);
  }

  function fromHash() {
    var m = /^#move=(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  function start() {
    document.getElementById("title").textContent = D.title;
    document.getElementById("players").textContent = "Players: " + D.players.map(function (p, i) { return p || seat(i); }).join(", ") +
      (Object.keys(D.options).length ? " \u00b7 Options: " + Object.keys(D.options).sort().map(function (k) { return k + "=" + JSON.stringify(D.options[k]); }).join(", ") : "");
    var verdict = document.getElementById("verdict");
    verdict.className = D.verdict;
    verdict.textContent = "Verdict: " + D.verdict + (D.violations.length ? " \u2014 [" + D.violations[0].rule + "] " + D.violations[0].message : "");
    list = document.getElementById("moves");
    D.steps.forEach(function (s) {
      var li = el("li", s.ok ? "" : "illegal", s.text + (s.ok ? "" : "  [" + s.rule + "]"));
      (s.events || []).forEach(function (e) { li.appendChild(el("div", "event", e)); });
      li.addEventListener("click", function () { show(s.number); });
      list.appendChild(li);
    });
    var slider = document.getElementById("slider");
    slider.max = String(total);
    slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
    document.getElementById("first").addEventListener("click", function () { show(0); });
    document.getElementById("back").addEventListener("click", function () { show(at - 1); });
    document.getElementById("forward").addEventListener("click", function () { show(at + 1); });
    document.getElementById("last").addEventListener("click", function () { show(total); });
    var zoomBox = document.getElementById("zoom");
    zoomBox.addEventListener("click", function () { zoomBox.hidden = true; });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { zoomBox.hidden = true; return; }
      if (e.target && e.target.tagName === "INPUT") return;
      if (e.key === "ArrowRight") show(at + 1);
      else if (e.key === "ArrowLeft") show(at - 1);
      else if (e.key === "Home") show(0);
      else if (e.key === "End") show(total);
    });
    window.addEventListener("hashchange", function () { var n = fromHash(); if (n !== null) show(n, true); });
    // without #move=N: the start, or for a game stopped by an illegal move (always the last
    // step), that move with its rule highlighted
    var initial = fromHash();
    var refused = total > 0 && !D.steps[total - 1].ok;
    show(initial === null ? (refused ? total : 0) : initial, initial !== null);
    document.body.dataset.ready = "1";
  }

  // The positions come gzipped in base64 (see pack_views in tts_builder/replay.py).
  var bytes = Uint8Array.from(atob(D.views_gz), function (c) { return c.charCodeAt(0); });
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function (text) {
    D.views = JSON.parse(text);
    start();
  }).catch(function (e) {
    document.getElementById("move-text").textContent = "This browser could not unpack the game (" + e + "); try a current Chrome, Firefox or Safari.";
  });
})();
