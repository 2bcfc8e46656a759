// Table Companion: live updates over a WebSocket (polling when there is none), one-time action ids, what a push
// tells screen readers, the cues of your turn (title, vibration, an optional sound), wake lock and the service worker.
(function () {
  "use strict";

  function randomId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // works on plain http too, unlike randomUUID
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function liveSeq() {
    var live = document.getElementById("live");
    return live ? parseInt(live.dataset.seq, 10) : -1;
  }

  function yourTurn() {
    var live = document.getElementById("live");
    return !!live && live.dataset.yourTurn === "true";
  }

  // Keep what the player is typing when a fresh view replaces the form: the same form, about the same thing (its
  // hidden fields: a bid on the next car starts blank, not with the number ticked for the last one).
  function fieldKey(input) {
    var key = input.form.dataset.action;
    input.form.querySelectorAll("input[type=hidden]").forEach(function (hidden) {
      if (["seen_seq", "client_action_id", "csrf_token"].indexOf(hidden.name) < 0) { key += "&" + hidden.name + "=" + hidden.value; }
    });
    return key + "/" + input.name;
  }

  function typedValues() {
    var values = {};
    document.querySelectorAll("#live form[data-action] [data-dirty]").forEach(function (input) {
      if (input.type === "radio" && !input.checked) { return; } // of a group of choices, the one ticked
      values[fieldKey(input)] = input.value;
    });
    return values;
  }

  function restoreTyped(values) {
    document.querySelectorAll("#live form[data-action] [name]").forEach(function (input) {
      var key = fieldKey(input);
      if (key in values && input.type === "radio") {
        input.checked = input.value === values[key];
        input.dataset.dirty = "true";
      } else if (key in values && input.type !== "hidden") {
        input.value = values[key];
        input.dataset.dirty = "true";
      }
    });
  }

  // Elements known by a name and by which of the elements of that name each is ("Free this seat…" of the second
  // seat), so that a fresh view's element of the same key is the same thing, never one of its namesakes.
  function namesakes(elements) {
    var seen = {};
    return Array.from(elements, function (element) {
      var name = controlName(element);
      seen[name] = (seen[name] || 0) + 1;
      return { element: element, key: name + "#" + seen[name] };
    });
  }

  // A control by what it is, in words a fresh render keeps: its id; else what it sends (a field, a radio or a
  // button of a game's form: fieldKey with its value); else its kind, its parent's data (a station's figure) and text.
  function controlName(element) {
    if (element.id) { return "#" + element.id; }
    var text = element.textContent.trim();
    if (element.form && element.form.dataset.action) {
      return fieldKey(element) + (element.type === "radio" || element.tagName === "BUTTON" ? "=" + element.value + ":" + text : "");
    }
    return element.tagName + JSON.stringify(Object.assign({}, element.parentElement.dataset)) + text;
  }

  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  function controls() {
    return namesakes(document.getElementById("live").querySelectorAll(FOCUSABLE));
  }

  // Keep the focus (and the caret) where the player was when a fresh view replaces the live part: on the same control
  // in it, else (the control went with the view: a move made, a sheet closed) on the part's heading. Left on the
  // page's <body>, the next keys would go nowhere and a screen reader would start again from the top.
  function focusOf(element) {
    var found = controls().find(function (control) { return control.element === element; });
    var key = found && found.key;
    var caret = [element.selectionStart, element.selectionEnd];
    return {
      restore: function () {
        var same = controls().find(function (control) { return control.key === key; });
        var again = same && same.element;
        if (again) { again.focus({ preventScroll: true }); }
        if (!again || document.activeElement !== again) { // gone, or hidden in a closed section, or disabled
          document.getElementById("live-heading").focus({ preventScroll: true });
        } else if (typeof caret[0] === "number" && typeof again.selectionStart === "number") {
          again.setSelectionRange(caret[0], caret[1]);
        }
      },
    };
  }

  // Keep open sections open. Left to close: a confirm step when the table moved on (its question was about
  // the old state; a phone coming or going is no reason) and the section whose form is being sent (its
  // question is answered; reopening it by its summary would open another figure's station of the same
  // number) unless it is a fold of the page (data-fold), which holds many forms and stays as the player left it.
  function openSections(sameState) {
    return sectionKeys().filter(function (section) {
      var details = section.details;
      return details.open && (sameState || !details.classList.contains("confirm")) &&
        (details.hasAttribute("data-fold") || !details.querySelector("form.htmx-request, form[data-sending]"));
    }).map(function (section) { return section.key; });
  }

  function reopen(keys) {
    sectionKeys().forEach(function (section) {
      if (keys.indexOf(section.key) >= 0) { section.details.open = true; }
    });
  }

  // A section is known by its summary, so that reopening one never opens its namesakes.
  function sectionKeys() {
    return namesakes(document.querySelectorAll("#live details > summary")).map(function (summary) {
      return { details: summary.element.parentElement, key: summary.key };
    });
  }

  function applyFrame(html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    putInPlace(parsed.content.getElementById("live"));
  }

  // A fresh live part, pushed or the answer to a tap, replaces #live by hand: htmx.swap first fires two cleanup events
  // for every one of the fragment's hundreds of elements, the longest task of a page's load when a frame came right
  // after it.
  function putInPlace(fresh) {
    var live = document.getElementById("live");
    if (!fresh || !live || upgraded(fresh)) { return; }
    fresh.removeAttribute("hx-swap-oob"); // only an answer to a tap needs it
    // A display is sent a frame when a phone comes or goes; often nothing it shows changed (its own arrival). And the
    // answer to this page's own tap has often put the same view in place already.
    if (shownHTML(fresh) === shownHTML(live)) {
      if (fresh.dataset.frame) { live.dataset.frame = fresh.dataset.frame; } // the frame a diff will start from
      return;
    }
    // The socket and the answer to this page's own action race: a frame older than the page is never shown.
    if (parseInt(fresh.dataset.seq, 10) < liveSeq()) { return; }
    update(parseInt(fresh.dataset.seq, 10), function () {
      live.replaceWith(fresh);
      return [fresh];
    });
  }

  // A diff frame (companion/web/frame_regions.py): its first line names the frame it was made from and its own, then
  // come the regions that changed, each in a <template data-region>, a region inside one left as a placeholder
  // (<template data-keep>) for the diff's region of that id or else the one the page shows. False, changing nothing,
  // when the page does not show the diff's base (an answer over HTTP replaced the live part) or a region is missing.
  function applyDiff(frame) {
    var cut = frame.indexOf("\n");
    var names = frame.slice(0, cut).split(" ");
    var live = document.getElementById("live");
    if (!live || live.dataset.frame !== names[1]) { return false; }
    var parsed = document.createElement("template");
    parsed.innerHTML = frame.slice(cut + 1);
    var fresh = {};
    Array.from(parsed.content.children).forEach(function (region) {
      fresh[region.dataset.region] = region.content.firstElementChild;
    });
    var keeps = [];
    Object.keys(fresh).forEach(function (id) {
      fresh[id].querySelectorAll("template[data-keep-run]").forEach(keepEach);
      fresh[id].querySelectorAll("template[data-keep]").forEach(function (keep) { keeps.push(keep); });
    });
    var placed = {};
    var found = keeps.map(function (keep) {
      placed[keep.dataset.keep] = true;
      return fresh[keep.dataset.keep] || document.getElementById(keep.dataset.keep);
    });
    var outermost = Object.keys(fresh).filter(function (id) { return !placed[id]; });
    var shown = outermost.map(function (id) { return document.getElementById(id); });
    if (found.indexOf(null) >= 0 || shown.indexOf(null) >= 0) { return false; }
    if (fresh.live && upgraded(fresh.live)) { return true; }
    var seq = fresh.live ? parseInt(fresh.live.dataset.seq, 10) : liveSeq();
    if (fresh.live) { fresh.live.removeAttribute("hx-swap-oob"); } // as putInPlace leaves it
    update(seq, function () {
      keeps.forEach(function (keep, index) { keep.replaceWith(found[index]); });
      shown.forEach(function (element, index) { element.replaceWith(fresh[outermost[index]]); });
      document.getElementById("live").dataset.frame = names[2];
      return outermost.map(function (id) { return fresh[id]; });
    });
    return true;
  }

  // A run of regions numbered in turn (the history's lines: data-keep-run="line-", from 100 to 81) comes as one
  // placeholder; it stands for one placeholder each.
  function keepEach(run) {
    var from = parseInt(run.dataset.from, 10);
    var to = parseInt(run.dataset.to, 10);
    var step = from <= to ? 1 : -1;
    var keeps = [];
    for (var number = from; number !== to + step; number += step) {
      var keep = document.createElement("template");
      keep.dataset.keep = run.dataset.keepRun + number;
      keeps.push(keep);
    }
    run.replaceWith.apply(run, keeps);
  }

  // Put a fresh view in place (`swap`, which returns the elements it put there) as the player left the old one: what
  // they typed, the sections they opened, the focus; then say what is new and show whose turn it is.
  function update(seq, swap) {
    // A notice speaks of the state it was given in ("Not your turn"): once the table has moved on, it is stale.
    if (seq > liveSeq()) { document.getElementById("notice").replaceChildren(); }
    var live = document.getElementById("live");
    var before = { seq: liveSeq(), yourTurn: yourTurn(), banner: bannerText() };
    var typed = typedValues();
    var open = openSections(seq === liveSeq());
    var focused = live.contains(document.activeElement) ? focusOf(document.activeElement) : null;
    swap().forEach(function (element) { htmx.process(element); });
    restoreTyped(typed);
    reopen(open);
    if (focused) { focused.restore(); }
    tell(before);
    showTurn();
    showSound();
    followToNewTable();
  }

  function bannerText() {
    var banner = document.querySelector("#live .banner");
    return banner ? banner.textContent.trim() : "";
  }

  // What a push tells a screen reader, once: the history lines newer than what the page showed (as this page may see
  // them, in its language) and a banner that is new. When the push makes it this seat's turn, they are said with
  // "Your turn" in the assertive region alone: an assertive announcement would cut a polite one short.
  function tell(before) {
    if (liveSeq() <= before.seq) { return; }
    var said = Array.from(document.querySelectorAll("#live .history-lines > li[data-seq]")).filter(function (line) {
      return parseInt(line.dataset.seq, 10) > before.seq;
    }).reverse().map(function (line) { return line.textContent.replace(/\s+/g, " ").trim(); });
    var banner = bannerText();
    if (banner && banner !== before.banner && said.indexOf(banner) < 0) { said.push(banner); }
    var news = document.getElementById("news");
    var turnNews = document.getElementById("turn-news");
    var turn = !before.yourTurn && yourTurn() && !!turnNews;
    if (turn) {
      said.push(turnNews.dataset.yourTurn);
      remindOfTurn();
    }
    if (!said.length) { return; }
    var region = turn ? turnNews : news;
    if (turnNews) { (turn ? news : turnNews).replaceChildren(); } // each region holds the latest it said, or nothing
    region.replaceChildren.apply(region, said.map(function (text) {
      var line = document.createElement("p");
      line.textContent = text;
      return line;
    }));
  }

  // Your turn, besides the badge in the live part: the title says it (a phone whose tab is in the background), the
  // phone vibrates where it can, and a short tone sounds where the player switched it on for this device.
  var pageTitle = document.title;

  function showTurn() {
    var turnNews = document.getElementById("turn-news");
    if (turnNews) { document.title = yourTurn() ? turnNews.dataset.yourTurn + " · " + pageTitle : pageTitle; }
  }

  function remindOfTurn() {
    if (navigator.vibrate) { navigator.vibrate(200); }
    if (soundOn()) { tone(); }
  }

  // The tone's switch is in the live part, which every push puts in place again: its state is this device's (in
  // localStorage), ticked again in each fresh part (a property, not an attribute: the part's HTML stays the server's).
  // Browsers let a page sound only once it has been tapped: the tap that switches the sound on, or after a reload
  // the first tap anywhere, wakes the audio (an iPhone's only after a tap).
  var SOUND = "companion.turn-sound";
  var audio = null;

  function soundOn() {
    return localStorage.getItem(SOUND) === "on";
  }

  function showSound() {
    var toggle = document.getElementById("turn-sound");
    if (toggle) { toggle.checked = soundOn(); }
  }

  function wakeAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) { audio = new Context(); }
    if (audio) { audio.resume(); }
  }

  function tone() {
    if (!audio) { return; }
    audio.resume();
    var now = audio.currentTime;
    var oscillator = audio.createOscillator();
    var gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.25, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.3);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.3);
  }

  document.addEventListener("change", function (event) {
    if (event.target.id !== "turn-sound") { return; }
    localStorage.setItem(SOUND, event.target.checked ? "on" : "off");
    if (event.target.checked) { wakeAudio(); tone(); } // the tone it will make, and the tap an iPhone needs
  });

  // What a live part shows, as HTML: without the marks htmx leaves while it sends a form or settles a swap, so that
  // two renders of one view compare equal however each came.
  var HTMX_MARKS = ["htmx-request", "htmx-added", "htmx-settling", "htmx-swapping"];
  function shownHTML(live) {
    var copy = live.cloneNode(true);
    copy.removeAttribute("hx-swap-oob");
    copy.removeAttribute("data-frame");
    [copy].concat(Array.from(copy.querySelectorAll("[class]"))).forEach(function (node) {
      node.classList.remove.apply(node.classList, HTMX_MARKS);
      if (!node.classList.length) { node.removeAttribute("class"); }
    });
    return copy.outerHTML;
  }

  // The answer to a tap brings the live part too: it is put in place as a pushed one is (the socket may have brought
  // the same view, or a newer one, first: putting it in place again would replace the buttons under the player's
  // finger for nothing).
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fresh = event.detail.fragment.firstElementChild;
    if (!fresh || fresh.id !== "live" || event.detail.target.id !== "live") { return; }
    event.detail.shouldSwap = false;
    putInPlace(fresh);
  });

  // Play again: once the host opened the next table, every page of this one goes there (a phone to its seat).
  function followToNewTable() {
    var next = document.querySelector("#live [data-follow]");
    if (next) { window.location.assign(next.href); }
  }

  document.addEventListener("input", function (event) {
    if (event.target.form && event.target.form.dataset.action) { event.target.dataset.dirty = "true"; }
  });

  // Every action carries a client action id and the seq the phone saw. The id is kept until the server answers
  // the action (2xx to 4xx): after a 5xx, a timeout or a dropped connection the action may have been stored all
  // the same, and sending it again must not apply it twice. A pushed frame may have put a fresh form in place of
  // the one tapped, so the id belongs to what the form sends (its action and fields), not to the form element.
  var unanswered = {};

  function actionKey(form, formData) {
    var fields = [];
    formData.forEach(function (value, name) {
      if (["seen_seq", "client_action_id", "csrf_token"].indexOf(name) < 0) { fields.push(name + "=" + value); }
    });
    return form.getAttribute("hx-post") + "?" + fields.sort().join("&");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt.closest("form");
    if (!form) { return; }
    var key = actionKey(form, event.detail.formData);
    unanswered[key] = unanswered[key] || randomId();
    form.dataset.actionKey = key;
    event.detail.parameters.client_action_id = unanswered[key];
    // The seq the page shows, which the forms do not carry (templates/macros.html): "stale" if the table moved on.
    if (form.closest("#live")) { event.detail.parameters.seen_seq = liveSeq(); }
    if (sendOverSocket && form.dataset.action) {
      sendOverSocket(form, key, event.detail.formData);
      event.preventDefault(); // no POST
    }
  });
  // Forms inside pushed fragments carry no token of their own (they are rendered for the seat, not the device).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method === "post" && !form.querySelector("[name=csrf_token]")) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrf_token";
      input.value = document.body.dataset.csrf;
      form.appendChild(input);
    }
  }, true);
  // On the request itself, not on htmx:afterRequest: a pushed frame that replaced the tapped form before the
  // answer came leaves that event on a detached element, where it never reaches the document, and the next
  // tap of the same button would carry the answered id again (and be taken as a repeat, not applied).
  document.addEventListener("htmx:beforeSend", function (event) {
    var form = event.detail.elt.closest("form");
    if (!form || !form.dataset.actionKey) { return; }
    var key = form.dataset.actionKey;
    var xhr = event.detail.xhr;
    posting += 1;
    xhr.addEventListener("loadend", function () {
      posting -= 1;
      settle(key, xhr.status, parseInt(xhr.getResponseHeader("Retry-After") || "", 10));
    });
  });

  // An action without an answer (none, or a 5xx) is sent again by itself, with its id, until the server answers
  // it: after the server's Retry-After or a growing pause (up to 10 s), while the page still offers it (a fresh
  // view that no longer does shows whether it went through).
  var resends = {};

  function settle(key, status, retryAfter) {
    if (status >= 200 && status < 500) {
      delete unanswered[key];
      delete resends[key];
      return;
    }
    resends[key] = (resends[key] || 0) + 1;
    var wait = retryAfter || Math.min(Math.pow(2, resends[key] - 1), 10);
    setTimeout(function () { resend(key); }, wait * 1000);
  }

  function resend(key) {
    if (!(key in unanswered)) { return; }
    var form = Array.from(document.querySelectorAll("#live form[hx-post]")).find(function (candidate) {
      return actionKey(candidate, new FormData(candidate)) === key;
    });
    if (form) { htmx.trigger(form, "submit"); } else { delete resends[key]; } // the id stays for a tap on it
  }

  // A page open across an upgrade of the server: its live parts now come from another build (templates, this script,
  // the socket's protocol), which the page does not show. It reloads itself once no action it sent awaits its answer
  // (none posted, sent over the socket or to be sent again), keeping what the player typed and the ids of the actions
  // still unanswered: the same seat (its cookie), nothing lost and nothing applied twice.
  var posting = 0; // actions posted whose answer has not come
  var UPGRADE = "companion-upgrade:" + location.pathname;
  var upgrading = false;

  function upgraded(fresh) {
    if (!fresh.dataset.build || fresh.dataset.build === document.body.dataset.build) { return false; }
    if (!upgrading) { upgrading = true; reloadWhenQuiet(); }
    return true;
  }

  function reloadWhenQuiet() {
    var resending = Object.keys(resends).some(function (key) { return key in unanswered; });
    if (posting || resending || Object.keys(sentOverSocket).length) { setTimeout(reloadWhenQuiet, 200); return; }
    try {
      sessionStorage.setItem(UPGRADE, JSON.stringify({ typed: typedValues(), unanswered: unanswered }));
    } catch (full) { /* a reload that forgets the typing still lands on the same seat */ }
    location.reload();
  }

  function restoreAfterUpgrade() {
    var saved = JSON.parse(sessionStorage.getItem(UPGRADE) || "null");
    sessionStorage.removeItem(UPGRADE);
    if (saved) { restoreTyped(saved.typed); Object.assign(unanswered, saved.unanswered); }
  }

  // A page's actions (its forms of the game's actions) go over its socket while it is open: no HTTP request for
  // each, a fraction of a POST's work for the server (bench/RESULTS.md); without a socket they are posted. The server
  // answers such a form as a POST: its status and a refusal's notice; the view comes as the next frame.
  var sendOverSocket = null; // while the page's socket is open
  var sentOverSocket = {}; // action id -> action key, until answered or the socket is gone

  function socketSender(socket) {
    return function (form, key, formData) {
      var fields = {};
      formData.forEach(function (value, name) {
        if (name !== "csrf_token") { (fields[name] = fields[name] || []).push(value); }
      });
      sentOverSocket[unanswered[key]] = key;
      form.dataset.sending = "true"; // as htmx marks a form it posts: see openSections
      socket.send(JSON.stringify({ form: fields }));
    };
  }

  function answered(answer) {
    var key = sentOverSocket[answer.answer];
    if (key === undefined) { return; }
    delete sentOverSocket[answer.answer];
    if (answer.notice) { // a refusal: no fresh view comes to replace the form
      var notice = document.createElement("template");
      notice.innerHTML = answer.notice;
      document.getElementById("notice").replaceWith(notice.content.firstElementChild);
      document.querySelectorAll("form[data-sending]").forEach(function (form) {
        if (form.dataset.actionKey === key) { delete form.dataset.sending; }
      });
    } else {
      document.getElementById("notice").replaceChildren(); // as a POST's answer clears the last refusal away
    }
    settle(key, answer.status);
  }

  // The socket went with actions unanswered: each may have been stored or not, and is sent again, like a POST
  // whose connection dropped.
  function lostOverSocket() {
    var lost = sentOverSocket;
    sentOverSocket = {};
    Object.keys(lost).forEach(function (id) { settle(lost[id], 0); });
  }

  // A page cannot see the server's WebSocket pings; it asks itself, and an unanswered ping means the socket
  // is gone even if it never closed (Wi-Fi lost without the phone noticing).
  var HEARTBEAT = 10000;

  // While the server is out of reach a tap would vanish silently: say so and hold the buttons until it is back.
  function showReachable(root, reachable) {
    root.querySelector("[data-connection]").hidden = reachable;
    root.querySelectorAll(reachable ? "button[data-held]" : "button:not([disabled])").forEach(function (button) {
      button.disabled = !reachable;
      button.toggleAttribute("data-held", !reachable);
    });
  }

  function connect(root) {
    var failures = 0;
    var pollTimer = null;
    var retryTimer = null;
    var dropSocket = null; // the current socket's way out, while it is open or opening

    function poll() {
      var url = root.dataset.liveUrl + "&since=" + liveSeq();
      var polling = !!pollTimer; // otherwise the socket says whether the table is reachable
      fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (polling) { showReachable(root, true); }
        if (response.status === 200) { return response.text().then(applyFrame); }
      }).catch(function () {
        if (polling) { showReachable(root, false); }
      });
    }

    function startPolling() {
      if (!pollTimer) { pollTimer = setInterval(poll, 3000); poll(); }
    }

    function open() {
      retryTimer = null;
      if (!("WebSocket" in window)) { startPolling(); return; }
      var socket = new WebSocket(root.dataset.wsUrl + "&since=" + liveSeq()); // url_for gives ws:// or wss://
      var heartbeat = null;
      var unanswered = false;
      var gone = false;

      function drop() {
        if (gone) { return; }
        gone = true;
        dropSocket = null;
        sendOverSocket = null;
        lostOverSocket();
        clearInterval(heartbeat);
        socket.onclose = socket.onmessage = null;
        socket.close();
        failures += 1;
        if (!pollTimer) { showReachable(root, false); } // once polling, its answers tell
        if (failures >= 3) { startPolling(); }
        retryTimer = setTimeout(open, Math.min(1000 * failures, 10000));
      }

      dropSocket = drop;
      socket.onopen = function () {
        failures = 0;
        if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
        showReachable(root, true);
        sendOverSocket = socketSender(socket);
        heartbeat = setInterval(function () {
          if (unanswered) { drop(); return; }
          unanswered = true;
          socket.send("ping");
        }, HEARTBEAT);
      };
      socket.onmessage = function (event) {
        unanswered = false;
        var frame = event.data;
        if (frame.charAt(0) === "{") { // the answer to a form, alone or on the line before the view it brought
          var cut = frame.indexOf("\n");
          answered(JSON.parse(cut < 0 ? frame : frame.slice(0, cut)));
          frame = cut < 0 ? "" : frame.slice(cut + 1);
        }
        if (frame.lastIndexOf("diff ", 0) === 0) {
          if (!applyDiff(frame)) { socket.send("whole"); }
        } else if (frame && frame !== "pong") {
          applyFrame(frame);
        }
      };
      socket.onclose = drop;
    }

    open();
    window.addEventListener("offline", function () {
      if (dropSocket) { dropSocket(); } else { showReachable(root, false); }
    });
    // Back online: try at once instead of waiting out the backoff.
    window.addEventListener("online", function () {
      if (retryTimer) { clearTimeout(retryTimer); failures = 0; open(); }
    });
    // An action that could not reach the server: the socket is likely dead too, reconnect now rather than later.
    document.addEventListener("htmx:sendError", function () {
      if (dropSocket) { dropSocket(); }
    });
    // A phone that slept catches up at once instead of waiting for the socket to notice.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { poll(); }
    });
  }

  function keepAwake() {
    if (!window.isSecureContext || !("wakeLock" in navigator)) { return; }
    var request = function () { navigator.wakeLock.request("screen").catch(function () {}); };
    request();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { request(); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    restoreAfterUpgrade();
    followToNewTable();
    showTurn();
    showSound();
    // A click, not a pointerdown: a touch's pointerdown is no user activation, so iPhones would keep the sound off.
    if (soundOn()) { document.addEventListener("click", wakeAudio, { once: true, capture: true }); }
    var root = document.querySelector(".live-root");
    if (root) {
      connect(root);
      if (root.dataset.wakeLock) { keepAwake(); }
    }
    var note = document.querySelector("[data-insecure-note]");
    if (note && !window.isSecureContext) { note.hidden = false; }
    if (window.isSecureContext && "serviceWorker" in navigator) {
      navigator.serviceWorker.register(document.body.dataset.sw).catch(function () {
        // Over HTTPS this is a certificate the browser was told to accept but does not trust (--tls's self-signed):
        // the page is a secure context, yet Chromium fetches no worker script under it.
        var refused = document.querySelector("[data-no-worker-note]");
        if (refused && location.protocol === "https:") { refused.hidden = false; }
      });
    }
  });
})();
