/* The crowd worker's page: consent, lobby, dialog, forms and completion in one page.
 *
 * The server is the authority on everything (turns, deadlines, what each role may see);
 * this page only shows the latest state it was sent and forwards what the worker does.
 * A reload or a dropped socket reconnects with the same tab id, and the server resends
 * the full state, so nothing here needs to survive except the token and the tab id.
 */
"use strict";

(() => {
  const PROTOCOL = 1;
  const EMOTION_LABELS = {
    amusement: "Amusement",
    awe: "Awe",
    contentment: "Contentment",
    excitement: "Excitement",
    anger: "Anger",
    disgust: "Disgust",
    fear: "Fear",
    sadness: "Sadness",
    something_else: "Something else",
  };
  const POSITIVE = ["amusement", "awe", "contentment", "excitement"];
  const NEGATIVE = ["anger", "disgust", "fear", "sadness"];
  // Hello errors after which reconnecting cannot help.
  const FATAL = new Set(["second_tab", "bad_token", "expired_token", "not_allowed", "bad_version", "no_hello"]);
  const WORKER_RE = /^[A-Za-z0-9_-]{1,64}$/;

  const ROLE_TEXT = {
    questioner: {
      title: "You are the questioner",
      text:
        "You cannot see the artwork yet. Two people who saw it wrote down how it made them feel " +
        "(left). Ask your partner about what the picture shows (colours, people, objects, setting, " +
        "style) so that you can form your own impression of it. After the last answer you say which " +
        "emotion you expect it would give you; then the artwork is revealed.",
      rules: [
        "Only ask questions, one per turn, and start right away without greetings.",
        "Do not ask how the picture makes your partner feel.",
        "Avoid vague questions such as “What is it about?” or “Anything else?”.",
        "Stay on the artwork; write full sentences in proper English, no chat shorthand.",
      ],
      placeholder: "Type your question…",
      revealed:
        "The conversation is over and the artwork is now shown on the left. Look at it, then tell us " +
        "which emotion it gives you now that you can see it.",
    },
    answerer: {
      title: "You are the answerer",
      text:
        "You can see the artwork; your partner cannot. They will ask you about it. Answer each " +
        "question in full sentences and describe what is actually there (colours, textures, people, " +
        "animals, setting, style) so that your partner can picture it. Let them come to their own feeling.",
      rules: [
        "Only answer; do not ask your partner questions.",
        "Never reply with just “yes”, “no” or “maybe”: add detail.",
        "Do not name emotions (“it is a sad painting”); describe what you see instead.",
        "Stay on the artwork; write full sentences in proper English, no chat shorthand.",
      ],
      placeholder: "Type your answer…",
    },
  };

  const FORM_TEXT = {
    before_reveal: {
      title: "Your impression before seeing the artwork",
      prompt:
        "Judging only from the conversation you just had, which emotion do you think this artwork " +
        "would give you? Explain why, pointing to things your partner described.",
    },
    after_reveal: {
      title: "Now you can see the artwork",
      prompt:
        "Take a look at the artwork, now shown on this page. Which emotion does it give you? Explain " +
        "your choice, and say what changed compared with your first impression, if anything did.",
    },
    answerer: {
      title: "Your own reaction to the artwork",
      prompt:
        "Which emotion does this artwork give you personally? Explain what in the picture makes you " +
        "feel this way.",
    },
  };

  const K = {
    worker: "avd.worker",
    tab: "avd.tab",
    token: (worker) => "avd.token." + worker,
    wantLobby: "avd.wantLobby",
    stage: "avd.stage",
  };

  const $ = (id) => document.getElementById(id);

  const app = {
    config: {
      rounds: 10,
      turn_seconds: 180,
      lobby_max_wait_seconds: 180,
      max_message_chars: 500,
      min_explanation_words: 10,
    },
    worker: null,
    token: null,
    tab: null,
    ws: null,
    attempts: 0,
    reconnectTimer: null,
    stopped: false, // nothing more to do: do not reconnect
    heartbeat: null,
    pingSentAt: 0,
    clockOffset: 0, // server time minus local time, seconds
    lobby: null,
    matching: false,
    view: null,
    pending: new Map(), // client_id -> {kind, frame}
    formPhase: null,
    done: false,
    warningUntil: 0,
    endedMessage: null,
  };

  // ------------------------------------------------------------------ helpers

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function serverNow() {
    return Date.now() / 1000 + app.clockOffset;
  }

  function clock(seconds) {
    const s = Math.max(0, Math.round(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function minutes(seconds) {
    if (seconds < 60) return Math.round(seconds) + " seconds";
    const m = Math.round(seconds / 60);
    return m <= 1 ? "1 minute" : m + " minutes";
  }

  function wordCount(text) {
    const t = text.trim();
    return t ? t.split(/\s+/).length : 0;
  }

  function emotionLabel(id) {
    return EMOTION_LABELS[id] || id.replace(/_/g, " ");
  }

  function show(screenId) {
    for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== screenId;
    document.body.dataset.screen = screenId.replace("screen-", "");
  }

  function setText(id, text) {
    const el = $(id);
    if (el.textContent !== text) el.textContent = text;
  }

  function flag(id, message) {
    const el = $(id);
    el.textContent = message || "";
    el.hidden = !message;
  }

  function setSession(key, value) {
    if (value === null || value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  }

  /** A crowd platform hook from mturk.js (window.avdPlatform): a value, or a call with args. */
  function platform(name, ...args) {
    const p = window.avdPlatform;
    if (!p || !(name in p)) return undefined;
    return typeof p[name] === "function" ? p[name](...args) : p[name];
  }

  // ------------------------------------------------------------------ start-up

  function workerId() {
    // MTurk mode (mturk.js): the platform's worker id
    if (window.avdPlatform && window.avdPlatform.worker) {
      return WORKER_RE.test(window.avdPlatform.worker) ? window.avdPlatform.worker : null;
    }
    const param = new URLSearchParams(location.search).get("worker");
    if (param) return WORKER_RE.test(param) ? param : null;
    let id = localStorage.getItem(K.worker);
    if (!id) {
      id = "local-" + newId().replace(/-/g, "").slice(0, 16);
      localStorage.setItem(K.worker, id);
    }
    return id;
  }

  /** A tab id unique to this tab: a duplicated tab copies sessionStorage, so ask the others. */
  async function claimTab() {
    let tab = sessionStorage.getItem(K.tab);
    const chan = "BroadcastChannel" in window ? new BroadcastChannel("avd-tabs") : null;
    if (tab && chan) {
      const taken = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), 150);
        chan.onmessage = (e) => {
          if (e.data && e.data.kind === "taken" && e.data.tab === tab) {
            clearTimeout(timer);
            resolve(true);
          }
        };
        chan.postMessage({ kind: "who", tab });
      });
      if (taken) tab = null;
    }
    if (!tab) {
      tab = newId();
      sessionStorage.setItem(K.tab, tab);
    }
    if (chan) {
      chan.onmessage = (e) => {
        if (e.data && e.data.kind === "who" && e.data.tab === tab) chan.postMessage({ kind: "taken", tab });
      };
    }
    return tab;
  }

  async function loadConfig() {
    try {
      const reply = await fetch("/api/config", { cache: "no-store" });
      if (reply.ok) Object.assign(app.config, await reply.json());
    } catch (err) {
      /* keep the defaults; the server still enforces its own limits */
    }
    for (const el of document.querySelectorAll(".js-rounds")) el.textContent = String(app.config.rounds);
    for (const el of document.querySelectorAll(".js-turn-minutes")) el.textContent = minutes(app.config.turn_seconds);
    for (const el of document.querySelectorAll(".js-lobby-minutes"))
      el.textContent = minutes(app.config.lobby_max_wait_seconds);
    $("chat-input").maxLength = app.config.max_message_chars;
  }

  async function boot() {
    bindUi();
    if (platform("preview")) return platform("showPreview"); // MTurk preview: no session, no pairing
    app.worker = workerId();
    if (!app.worker) {
      fatal("This link is not valid", "The worker id in this link is malformed. Please open the task again from your platform.");
      return;
    }
    const [tab] = await Promise.all([claimTab(), loadConfig()]);
    app.tab = tab;
    app.token = sessionStorage.getItem(K.token(app.worker));
    if (app.token) connect();
    else show("screen-consent");
    setInterval(tick, 250);
  }

  async function agree() {
    const button = $("consent-agree");
    button.disabled = true;
    flag("consent-error", "");
    try {
      const reply = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        // MTurk mode adds provider, assignment_id, hit_id, turk_submit_to (mturk.js)
        body: JSON.stringify(
          Object.assign({ worker: app.worker, consent: true, provider: "local" }, platform("sessionFields")),
        ),
      });
      const body = await reply.json().catch(() => ({}));
      if (!reply.ok) throw new Error(body.detail || "The server refused the request (" + reply.status + ").");
      app.token = body.token;
      sessionStorage.setItem(K.token(app.worker), app.token);
      setSession(K.wantLobby, "1");
      show("screen-loading");
      connect();
    } catch (err) {
      flag("consent-error", "Could not start: " + err.message + " Please try again.");
    } finally {
      button.disabled = false;
    }
  }

  // ------------------------------------------------------------------ the socket

  function connect() {
    clearTimeout(app.reconnectTimer);
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    const ws = new WebSocket(url);
    app.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", v: PROTOCOL, token: app.token, tab: app.tab }));
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (app.ws === ws) handle(frame);
    };
    ws.onclose = () => {
      if (app.ws !== ws) return;
      app.ws = null;
      clearInterval(app.heartbeat);
      if (!app.stopped) scheduleReconnect();
    };
  }

  function scheduleReconnect() {
    const delay = Math.min(10000, 500 * 2 ** app.attempts) * (0.75 + Math.random() * 0.5);
    app.attempts += 1;
    const seconds = Math.max(1, Math.round(delay / 1000));
    flag("connection-banner", "Connection lost. Reconnecting in " + seconds + " s… (your progress is kept)");
    setConn("offline");
    app.reconnectTimer = setTimeout(connect, delay);
  }

  function send(frame) {
    if (app.ws && app.ws.readyState === WebSocket.OPEN) {
      app.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Frames with a client id wait for their ack; they are resent (same id) after a reconnect. */
  function sendTracked(kind, frame, extra) {
    app.pending.set(frame.client_id, Object.assign({ kind, frame, acked: false, seq: null }, extra || {}));
    send(frame);
  }

  function setConn(state) {
    const el = $("conn-status");
    el.textContent = state === "online" ? "Connected" : state === "offline" ? "Offline" : "";
    el.classList.toggle("offline", state === "offline");
  }

  function startHeartbeat(seconds) {
    clearInterval(app.heartbeat);
    const ping = () => {
      app.pingSentAt = Date.now();
      send({ type: "ping" });
    };
    ping();
    app.heartbeat = setInterval(ping, Math.max(1, seconds) * 1000);
  }

  // ------------------------------------------------------------------ frames

  function handle(f) {
    switch (f.type) {
      case "welcome":
        return onWelcome(f);
      case "lobby":
        app.lobby = f;
        app.matching = false;
        showLobby();
        return;
      case "matched":
        if (!sessionStorage.getItem(K.wantLobby)) return; // left meanwhile: let the handshake lapse
        app.matching = true;
        send({ type: "ready", match_id: f.match_id });
        showLobby();
        return;
      case "requeued":
        app.matching = false;
        flag("lobby-notice", f.reason);
        showLobby();
        return;
      case "lobby_timeout":
        setSession(K.wantLobby, null);
        app.matching = false;
        app.lobby = null;
        showStart(
          "No partner this time",
          f.message + " (You waited " + clock(f.waited_seconds) + ".) You can try again or close this page.",
        );
        platform("onLobbyTimeout", f); // MTurk mode: offer to submit for the waiting time
        return;
      case "state":
        return onState(f.dialog);
      case "message":
        return onMessage(f);
      case "ack":
        return onAck(f);
      case "warning":
        app.warningUntil = Date.now() + Math.max(5, f.seconds_left) * 1000;
        flag("warning-banner", "Hurry up: " + f.message);
        return;
      case "ended":
        return onEnded(f);
      case "done":
        return onDone(f);
      case "error":
        return onError(f);
      case "pong":
        if (app.pingSentAt) app.clockOffset = f.at - (app.pingSentAt + Date.now()) / 2000;
        return;
      default:
        return;
    }
  }

  function onWelcome(f) {
    app.attempts = 0;
    flag("connection-banner", "");
    setConn("online");
    startHeartbeat(f.heartbeat_seconds);
    app.config.lobby_max_wait_seconds = f.lobby_max_wait_seconds;
    for (const item of app.pending.values()) if (!item.acked) send(item.frame);
    if (f.where === "idle") {
      if (sessionStorage.getItem(K.wantLobby)) {
        send({ type: "join_lobby" });
        showLobby();
      } else if (sessionStorage.getItem(K.stage) !== "dialog") {
        showStart("Ready when you are", "Press the button to be paired with a partner.");
      } // else: a finished dialog; its state frame follows
    } else if (f.where === "lobby" || f.where === "matched") {
      showLobby();
    }
  }

  function onState(view) {
    setSession(K.wantLobby, null);
    setSession(K.stage, "dialog");
    const first = !app.view || app.view.dialog_id !== view.dialog_id;
    app.view = view;
    settlePending();
    if (first) buildDialog();
    renderDialog();
  }

  function onMessage(m) {
    const v = app.view;
    if (!v) return;
    if (v.history.some((h) => h.seq === m.seq)) return;
    v.history.push({ seq: m.seq, round: m.round, role: m.role, text: m.text, at: m.at });
    v.history.sort((a, b) => a.seq - b.seq);
    if (m.seq === v.history[v.history.length - 1].seq) {
      // Advance the turn as the server does; the next state frame corrects anything else.
      if (m.role === "questioner") {
        v.turn = "answerer";
        v.round = m.round;
      } else if (m.round < v.rounds) {
        v.turn = "questioner";
        v.round = m.round + 1;
      } else {
        v.turn = null;
      }
      const deadline = v.turn ? m.at + app.config.turn_seconds : null;
      v.deadline = v.turn === v.role ? deadline : null;
      v.partner_deadline = v.turn && v.turn !== v.role ? deadline : null;
      flag("warning-banner", "");
    }
    settlePending();
    renderDialog();
  }

  function onAck(f) {
    const item = app.pending.get(f.client_id);
    if (!item) return;
    if (item.kind === "form") {
      // Stored: move on at once; the state frame that follows confirms (and reveals the image).
      app.pending.delete(f.client_id);
      if (app.view) app.view.todo = app.view.todo.filter((phase) => phase !== item.frame.phase);
    } else {
      item.acked = true;
      item.seq = f.seq;
      settlePending();
    }
    renderDialog();
  }

  /** A sent message stays "in flight" until its relayed copy is in the history. */
  function settlePending() {
    if (!app.view) return;
    const seen = new Set(app.view.history.map((h) => h.seq));
    for (const [cid, item] of app.pending) {
      if (item.kind === "message" && item.acked && seen.has(item.seq)) app.pending.delete(cid);
    }
  }

  function onEnded(f) {
    app.endedMessage = f.salvage ? null : f.message;
    flag("warning-banner", "");
    if (f.salvage) {
      flag("ended-notice", f.message);
      return; // a state frame with the forms follows
    }
    if (f.by_you) app.stopped = true;
    if (app.done) return;
    $("ended-message").textContent = f.message;
    show("screen-ended");
    platform("onEnded", f); // MTurk mode: ask to return the HIT
  }

  function onDone(f) {
    app.stopped = true;
    app.done = true;
    app.pending.clear();
    clearInterval(app.heartbeat);
    setText("completion-code", f.completion_code);
    setText("done-message", app.endedMessage ? app.endedMessage + " " + f.message : f.message);
    show("screen-done");
    platform("onDone", f.completion_code); // MTurk mode: the submit button
  }

  function onError(f) {
    if (FATAL.has(f.code)) {
      app.stopped = true;
      if (f.code === "bad_token" || f.code === "expired_token") {
        sessionStorage.removeItem(K.token(app.worker));
      }
      const title = f.code === "second_tab" ? "This task is open in another tab" : "This page cannot continue";
      fatal(title, f.message + (f.code.endsWith("_token") ? " Reload the page to start again." : ""));
      return;
    }
    const item = f.client_id ? app.pending.get(f.client_id) : null;
    if (item) app.pending.delete(f.client_id);
    if (item && item.kind === "form") {
      flag("form-error", f.message);
      setText("form-submit", "Submit");
    } else if (item && item.kind === "message") {
      const input = $("chat-input");
      if (!input.value) input.value = item.frame.text;
      flag("chat-error", f.message);
    } else if (document.body.dataset.screen === "dialog") {
      flag(app.view && app.view.todo.length && !app.view.turn ? "form-error" : "chat-error", f.message);
    } else if (document.body.dataset.screen === "lobby") {
      flag("lobby-notice", f.message);
    } else {
      flag("connection-banner", f.message);
    }
    renderDialog();
  }

  function fatal(title, message) {
    setText("fatal-title", title);
    setText("fatal-message", message);
    show("screen-fatal");
    setConn("");
  }

  // ------------------------------------------------------------------ lobby

  function showLobby() {
    setText("lobby-title", app.matching ? "Partner found: starting…" : "Waiting for a partner");
    show("screen-lobby");
    updateLobby();
  }

  function updateLobby() {
    const l = app.lobby;
    if (!l) return;
    const now = serverNow();
    const total = Math.max(1, l.expires_at - l.joined_at);
    setText("lobby-elapsed", clock(now - l.joined_at));
    setText("lobby-remaining", clock(l.expires_at - now) + " more");
    setText("lobby-waiting", String(Math.max(0, l.waiting - 1)));
    $("lobby-bar").style.width = Math.min(100, (100 * (now - l.joined_at)) / total).toFixed(1) + "%";
  }

  function showStart(title, message) {
    setText("start-title", title);
    setText("start-message", message);
    show("screen-start");
  }

  function joinAgain() {
    setSession(K.wantLobby, "1");
    flag("lobby-notice", "");
    app.lobby = null;
    if (!send({ type: "join_lobby" })) connect();
    showLobby();
  }

  function leaveLobby() {
    send({ type: "leave" });
    setSession(K.wantLobby, null);
    app.lobby = null;
    app.matching = false;
    showStart("You left the queue", "You are no longer waiting for a partner. You can join again or close this page.");
  }

  // ------------------------------------------------------------------ dialog

  function buildDialog() {
    const v = app.view;
    const text = ROLE_TEXT[v.role];
    const screen = $("screen-dialog");
    screen.dataset.role = v.role;
    $("role-banner").className = "role-banner card " + v.role;
    setText("role-title", text.title);
    setText("role-text", text.text);
    const rules = $("role-rules");
    rules.replaceChildren(
      ...text.rules.map((r) => {
        const li = document.createElement("li");
        li.textContent = r;
        return li;
      }),
    );
    $("chat-input").placeholder = text.placeholder;
    setText("chat-label", v.role === "questioner" ? "Your question" : "Your answer");
    const list = $("opinions");
    list.replaceChildren(
      ...v.opinions.map((o) => {
        const li = document.createElement("li");
        li.className = "opinion";
        li.dataset.testid = "opinion";
        const tag = document.createElement("span");
        tag.className =
          "emotion-tag" + (POSITIVE.includes(o.emotion) ? " positive" : NEGATIVE.includes(o.emotion) ? " negative" : "");
        tag.textContent = emotionLabel(o.emotion);
        const quote = document.createElement("blockquote");
        quote.textContent = o.text;
        li.append(tag, quote);
        return li;
      }),
    );
    app.formPhase = null;
    show("screen-dialog");
  }

  function renderImage(v) {
    const box = $("image-box");
    const img = box.querySelector("img");
    if (v.image_url) {
      if (!img || img.getAttribute("src") !== v.image_url) {
        const el = document.createElement("img");
        el.src = v.image_url;
        el.alt = "The artwork your conversation is about";
        el.dataset.testid = "stimulus-image";
        box.replaceChildren(el);
      }
    } else if (!box.querySelector(".image-placeholder")) {
      const ph = document.createElement("div");
      ph.className = "image-placeholder";
      ph.dataset.testid = "image-placeholder";
      ph.setAttribute("role", "img");
      ph.setAttribute("aria-label", "The artwork is hidden for now");
      ph.innerHTML =
        '<span class="icon" aria-hidden="true">?</span><strong>The artwork is hidden</strong>' +
        "<span>You will see it after the conversation, once you have given your first impression.</span>";
      box.replaceChildren(ph);
    }
  }

  function renderHistory(v) {
    const list = $("history");
    const items = v.history.map((h) => ({ ...h, pending: false }));
    for (const [cid, p] of app.pending) {
      if (p.kind === "message") items.push({ seq: Infinity, role: v.role, text: p.frame.text, pending: true, cid });
    }
    const key = items.map((h) => (h.pending ? "p" + h.cid : h.seq)).join(",");
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(
      ...items.map((h) => {
        const li = document.createElement("li");
        const mine = h.role === v.role;
        li.className = "msg " + h.role + (mine ? " mine" : " theirs") + (h.pending ? " pending" : "");
        li.dataset.testid = h.pending ? "message-pending" : "message";
        li.dataset.role = h.role;
        const who = document.createElement("span");
        who.className = "who";
        const label = h.role === "questioner" ? "Question" : "Answer";
        who.textContent = (mine ? "You" : "Partner") + " · " + label + (h.round ? " " + h.round : "");
        const text = document.createElement("span");
        text.className = "text";
        text.textContent = h.text;
        li.append(who, text);
        return li;
      }),
    );
    list.scrollTop = list.scrollHeight;
  }

  function turnText(v) {
    const partnerRole = v.role === "questioner" ? "answer" : "question";
    if (v.turn === v.role) return v.role === "questioner" ? "Your turn to ask" : "Your turn to answer";
    if (v.turn) return "Waiting for your partner's " + partnerRole + "…";
    if (v.todo.length) return "Please fill in the form below";
    if (v.status === "in_progress" || v.status === "complete") return "All done on your side";
    return "This dialog has ended";
  }

  /** Which screen a dialog state belongs on; the completion page, once shown, stays. */
  function dialogScreen(v) {
    if (app.done) return "screen-done";
    const over = v.turn === null && v.todo.length === 0 && !app.pending.size;
    if (over && v.status !== "in_progress" && v.status !== "complete") return "screen-ended";
    return "screen-dialog";
  }

  function renderDialog() {
    const v = app.view;
    if (!v) return;
    const screen = dialogScreen(v);
    if (screen === "screen-ended") setText("ended-message", app.endedMessage || "This dialog has ended.");
    if (document.body.dataset.screen !== screen.replace("screen-", "")) show(screen);
    renderImage(v);
    renderHistory(v);
    const chatting = v.turn !== null;
    const answered = v.history.filter((h) => h.role === "answerer").length;
    setText(
      "round-counter",
      chatting
        ? "Round " + v.round + " of " + v.rounds
        : answered >= v.rounds
          ? "All rounds done"
          : "Ended after " + answered + " of " + v.rounds + " rounds",
    );
    $("history").dataset.empty = chatting
      ? v.role === "questioner"
        ? "Ask your first question below."
        : "Your partner's first question will appear here."
      : "No messages were exchanged.";
    setText("turn-indicator", turnText(v));
    $("turn-indicator").classList.toggle("mine", (chatting && v.turn === v.role) || (!chatting && v.todo.length > 0));
    $("partner-notice").hidden = v.partner_connected !== false || !chatting;
    if (!v.salvage) flag("ended-notice", "");

    // chat input: only on your turn, one message in flight at a time
    const sending = [...app.pending.values()].some((p) => p.kind === "message");
    const myTurn = chatting && v.turn === v.role && !sending;
    $("chat-form").hidden = !chatting;
    const panel = document.querySelector(".chat-panel");
    if (panel.classList.contains("in-forms") === chatting) {
      panel.classList.toggle("in-forms", !chatting);
      $("history").scrollTop = $("history").scrollHeight;
    }
    if (v.role === "questioner") {
      setText("role-text", v.image_url ? ROLE_TEXT.questioner.revealed : ROLE_TEXT.questioner.text);
    }
    const input = $("chat-input");
    input.placeholder = myTurn
      ? ROLE_TEXT[v.role].placeholder
      : sending
        ? "Sending…"
        : "Wait for your partner's " + (v.role === "questioner" ? "answer" : "question") + "…";
    if (input.disabled === myTurn) {
      input.disabled = !myTurn;
      if (myTurn && document.hasFocus()) input.focus();
    }
    updateChatCount();

    // forms: the first one still to do, once the chat is over
    const phase = !chatting && v.todo.length ? v.todo[0] : null;
    $("emotion-form").hidden = !phase;
    if (phase && app.formPhase !== phase) buildForm(phase);
    app.formPhase = phase;
    if (phase) updateForm();
    $("finishing").hidden = chatting || !!phase;
    tick();
  }

  function updateChatCount() {
    const input = $("chat-input");
    const max = app.config.max_message_chars;
    const n = input.value.length;
    const el = $("char-count");
    setText("char-count", n + " / " + max);
    el.classList.toggle("over", n > max);
    $("chat-send").disabled = input.disabled || !input.value.trim() || n > max;
  }

  function sendChat(event) {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (input.disabled || !text) return;
    flag("chat-error", "");
    sendTracked("message", { type: "message", client_id: newId(), text });
    input.value = "";
    renderDialog();
  }

  // ------------------------------------------------------------------ forms

  function buildForm(phase) {
    const t = FORM_TEXT[phase];
    setText("form-title", t.title);
    setText("form-prompt", t.prompt);
    $("emotion-form").dataset.phase = phase;
    const options = $("emotion-options");
    options.replaceChildren(
      ...Object.keys(EMOTION_LABELS).map((id) => {
        const label = document.createElement("label");
        label.className = "emotion-option";
        const input = document.createElement("input");
        input.type = "radio";
        input.name = "emotion";
        input.value = id;
        input.id = "emotion-" + id;
        input.dataset.testid = "emotion-" + id;
        input.addEventListener("change", updateForm);
        const span = document.createElement("span");
        span.textContent = EMOTION_LABELS[id];
        label.append(input, span);
        return label;
      }),
    );
    $("explanation").value = "";
    flag("form-error", "");
    setText("form-submit", "Submit");
    const first = options.querySelector("input");
    if (first && document.hasFocus()) $("form-title").scrollIntoView({ block: "nearest" });
  }

  function chosenEmotion() {
    const checked = document.querySelector('#emotion-options input[name="emotion"]:checked');
    return checked ? checked.value : null;
  }

  function updateForm() {
    const min = app.config.min_explanation_words;
    const words = wordCount($("explanation").value);
    const el = $("word-count");
    setText("word-count", words + (words === 1 ? " word" : " words") + (min ? " (at least " + min + ")" : ""));
    el.classList.toggle("enough", words >= min);
    const pending = [...app.pending.values()].some((p) => p.kind === "form");
    $("form-submit").disabled = pending || !chosenEmotion() || words < min;
    for (const input of document.querySelectorAll("#emotion-form input, #emotion-form textarea")) input.disabled = pending;
  }

  function submitForm(event) {
    event.preventDefault();
    const phase = app.formPhase;
    const emotion = chosenEmotion();
    if (!phase || !emotion) return;
    flag("form-error", "");
    sendTracked("form", {
      type: "form",
      client_id: newId(),
      phase,
      emotion,
      explanation: $("explanation").value.trim(),
    });
    setText("form-submit", "Saving…");
    updateForm();
  }

  // ------------------------------------------------------------------ timers

  function tick() {
    const screen = document.body.dataset.screen;
    if (screen === "lobby") updateLobby();
    if (screen !== "dialog" || !app.view) return;
    const v = app.view;
    if (app.warningUntil && Date.now() > app.warningUntil) {
      app.warningUntil = 0;
      flag("warning-banner", "");
    }
    const el = $("countdown");
    let text = "";
    let urgent = false;
    if (v.deadline) {
      const left = v.deadline - serverNow();
      text = clock(left) + " left";
      urgent = left < 30;
    } else if (v.partner_deadline) {
      text = "Partner: " + clock(v.partner_deadline - serverNow());
    }
    setText("countdown", text);
    el.classList.toggle("urgent", urgent);
  }

  // ------------------------------------------------------------------ wiring

  function bindUi() {
    $("consent-agree").addEventListener("click", agree);
    $("consent-decline").addEventListener("click", () =>
      showStart("Thank you", "You chose not to take part. You can close this page, or change your mind below."),
    );
    $("start-join").addEventListener("click", () => (app.token ? joinAgain() : show("screen-consent")));
    $("lobby-leave").addEventListener("click", leaveLobby);
    $("chat-form").addEventListener("submit", sendChat);
    $("chat-input").addEventListener("input", () => {
      flag("chat-error", "");
      updateChatCount();
    });
    $("chat-input").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) sendChat(e);
    });
    $("emotion-form").addEventListener("submit", submitForm);
    $("explanation").addEventListener("input", updateForm);
    $("dialog-leave").addEventListener("click", () => ($("leave-confirm").hidden = false));
    $("leave-no").addEventListener("click", () => ($("leave-confirm").hidden = true));
    $("leave-yes").addEventListener("click", () => {
      $("leave-confirm").hidden = true;
      send({ type: "leave" });
    });
    $("copy-code").addEventListener("click", copyCode);
    window.addEventListener("online", () => {
      if (!app.ws && !app.stopped && app.token) connect();
    });
  }

  async function copyCode() {
    const code = $("completion-code").textContent;
    try {
      await navigator.clipboard.writeText(code);
      setText("copy-status", "Copied to the clipboard.");
    } catch (err) {
      const range = document.createRange();
      range.selectNodeContents($("completion-code"));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      const ok = document.execCommand && document.execCommand("copy");
      setText("copy-status", ok ? "Copied to the clipboard." : "Select the code and copy it by hand.");
    }
  }

  boot();
})();
