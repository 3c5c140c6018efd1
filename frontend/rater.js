/* The rater page of a human-evaluation study: consent, then one item at a time.
 *
 * The server picks every item, times it and judges whether an answer counts; this page
 * only shows what it is sent and posts the answer. A reload asks for the next item again
 * and gets the same one back until it is answered, so only the session token is kept.
 *
 * On MTurk (and in the Mephisto task's frame) the URL carries assignmentId, hitId, workerId and
 * turkSubmitTo. A preview starts nothing. Otherwise the session records the assignment, and at
 * the end frontend/mturk.js (the dialog page's platform script) submits the completion code to
 * MTurk or tells the Mephisto frame. An assignment in which nothing was rated (the rater had
 * finished the study in an earlier HIT) is not submitted: the page asks to return it.
 */
"use strict";

(() => {
  const WORKER_RE = /^[A-Za-z0-9_-]{1,64}$/;
  const QUESTIONS = {
    reasonableness: "Is the highlighted answer a reasonable reply?",
    turing: "Who do you think wrote this explanation?",
    preference: "Which reaction is better?",
    multichoice: "Pick the best answer.",
  };

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const studyId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const NOT_ACCEPTED = "ASSIGNMENT_ID_NOT_AVAILABLE";
  const assignmentId = params.get("assignmentId");
  const preview = assignmentId === NOT_ACCEPTED;
  // One session (and one count of answers) per assignment: a new HIT records its own arrival.
  const tokenKey = `avd-rater-token:${studyId}` + (assignmentId ? `:${assignmentId}` : "");
  const answeredKey = `avd-rater-answered:${studyId}:${assignmentId}`;
  let platform = null; // window.avdPlatform from /static/mturk.js, on MTurk or Mephisto
  let info = null;
  let current = null;
  let busy = false;

  function show(screen) {
    for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== `screen-${screen}`;
  }

  function fatal(message) {
    $("fatal-message").textContent = message;
    show("fatal");
  }

  function el(tag, attrs = {}, text = null) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== null) node.textContent = text;
    return node;
  }

  function pretty(emotion) {
    return String(emotion || "").replace(/_/g, " ");
  }

  async function api(method, path, body) {
    const headers = { "Content-Type": "application/json" };
    const token = sessionStorage.getItem(tokenKey);
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    let data = null;
    try {
      data = await res.json();
    } catch (_) {
      data = null;
    }
    if (!res.ok) {
      const err = new Error((data && data.detail) || `HTTP ${res.status}`);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  // ---------------------------------------------------------------- platform (MTurk, Mephisto)

  function loadPlatform() {
    if (!assignmentId || preview) return Promise.resolve(null);
    return new Promise((resolve) => {
      const script = el("script", { src: "/static/mturk.js" });
      script.onload = () => resolve(window.avdPlatform || null);
      script.onerror = () => resolve(null);
      document.head.appendChild(script);
    });
  }

  function showPreview() {
    show("consent");
    $("consent-agree").disabled = true;
    const note = el("p", { class: "lead", role: "status", "data-testid": "mturk-preview" },
      "This is a preview: read what the task is, then accept the HIT to start rating.");
    $("consent-title").after(note);
  }

  // Answers given in this assignment, kept across reloads and tabs (memory if storage is refused).
  let answeredMemory = 0;
  function answeredHere() {
    try {
      return Number(localStorage.getItem(answeredKey) || 0);
    } catch (_) {
      return answeredMemory;
    }
  }

  function countAnswer() {
    answeredMemory = answeredHere() + 1;
    try {
      localStorage.setItem(answeredKey, String(answeredMemory));
    } catch (_) {
      /* storage refused in this frame: the in-memory count still covers this page */
    }
  }

  function askToReturn(text) {
    const note = el("p", { "data-testid": "rater-return" }, text);
    $("done-message").after(note);
    $("code-block").hidden = true;
  }

  // ---------------------------------------------------------------- consent

  function renderInstructions() {
    document.title = info.title;
    $("brand").textContent = info.title;
    $("limit").textContent = String(info.items_per_rater);
    const box = $("instructions");
    box.textContent = "";
    for (const para of info.instructions.split(/\n\s*\n/)) {
      if (para.trim()) box.appendChild(el("p", {}, para.replace(/\s*\n\s*/g, " ").trim()));
    }
  }

  async function agree() {
    const worker = params.get("worker") || params.get("workerId");
    if (worker && !WORKER_RE.test(worker)) {
      $("consent-error").textContent = "The worker id in this link is not valid.";
      $("consent-error").hidden = false;
      return;
    }
    try {
      const fields = platform
        ? platform.sessionFields()
        : {
            provider: params.get("provider") || "local",
            assignment_id: assignmentId,
            hit_id: params.get("hitId"),
            turk_submit_to: params.get("turkSubmitTo"),
          };
      const reply = await api("POST", "/api/sessions", Object.assign({ worker: worker || null, consent: true }, fields));
      sessionStorage.setItem(tokenKey, reply.token);
      await next();
    } catch (err) {
      $("consent-error").textContent = err.message;
      $("consent-error").hidden = false;
    }
  }

  // ---------------------------------------------------------------- items

  async function next() {
    let reply;
    try {
      reply = await api("POST", `/api/studies/${encodeURIComponent(studyId)}/next`);
    } catch (err) {
      if (err.status === 401) {
        sessionStorage.removeItem(tokenKey);
        show("consent");
        return;
      }
      fatal(err.message);
      return;
    }
    if (reply.progress) {
      const n = Math.min(reply.progress.answered + (reply.state === "item" ? 1 : 0), reply.progress.limit);
      $("progress").textContent = `Item ${n} of at most ${reply.progress.limit}`;
    }
    if (reply.state !== "item") {
      finish(reply);
      return;
    }
    current = reply.item;
    renderItem(current);
    busy = false;
    show("item");
    window.scrollTo(0, 0);
    revealHighlight();
  }

  function finish(reply) {
    $("done-message").textContent = reply.message || "";
    $("done-title").textContent = reply.completion_code ? "Thank you" : "Nothing to rate";
    if (reply.completion_code) {
      $("completion-code").textContent = reply.completion_code;
      $("code-block").hidden = false;
    }
    $("progress").textContent = "";
    show("done");
    if (!platform) return;
    const where = platform.provider === "mephisto" ? "task" : "HIT";
    if (!reply.completion_code) {
      askToReturn(`Please return this ${where}: there is nothing to submit.`);
    } else if (answeredHere() === 0) {
      askToReturn(`You took part in this study in an earlier ${where}, so there is nothing new to submit here. Please return this ${where}.`);
    } else {
      platform.onDone(reply.completion_code);
    }
  }

  function renderImage(item) {
    const box = $("image-box");
    box.textContent = "";
    if (item.image_url) box.appendChild(el("img", { src: item.image_url, alt: "The artwork", "data-testid": "item-image" }));
  }

  function renderOpinions(item) {
    const list = $("opinions");
    list.textContent = "";
    $("opinions-box").hidden = !item.opinions;
    for (const o of item.opinions || []) {
      const li = el("li");
      li.appendChild(el("span", { class: "emo" }, `${pretty(o.emotion)}: `));
      li.appendChild(document.createTextNode(o.text));
      list.appendChild(li);
    }
    $("caption-box").hidden = !item.caption;
    $("caption").textContent = item.caption || "";
  }

  function renderDialog(item) {
    const list = $("dialog");
    list.textContent = "";
    $("dialog-box").hidden = !item.rounds;
    (item.rounds || []).forEach((r, i) => {
      const q = el("li", { class: "q" });
      q.appendChild(el("span", { class: "who" }, `Question ${i + 1}`));
      q.appendChild(document.createTextNode(r.question));
      const a = el("li", { class: "a" });
      a.appendChild(el("span", { class: "who" }, `Answer ${i + 1}`));
      a.appendChild(document.createTextNode(r.answer));
      if (item.kind === "reasonableness" && i + 1 === item.highlight) {
        a.classList.add("highlight");
        a.setAttribute("data-testid", "highlighted-answer");
      }
      list.append(q, a);
    });
  }

  // Scroll the conversation (not the page) so the highlighted answer is in view.
  function revealHighlight() {
    const list = $("dialog");
    const mark = list.querySelector(".highlight");
    if (mark) list.scrollTop = mark.offsetTop - list.offsetTop - list.clientHeight / 2 + mark.offsetHeight;
  }

  function renderItem(item) {
    renderImage(item);
    renderOpinions(item);
    renderDialog(item);
    $("context-panel").hidden = !item.image_url && !item.opinions && !item.caption;
    $("explanation-box").hidden = item.kind !== "turing";
    $("preference-box").hidden = item.kind !== "preference";
    $("mc-box").hidden = item.kind !== "multichoice";
    if (item.kind === "turing") {
      $("writer").textContent = item.writer || "one of the people in the conversation";
      $("explanation").textContent = item.explanation;
    }
    if (item.kind === "preference") {
      $("emotion").textContent = pretty(item.emotion);
      $("reaction-1").textContent = item.reactions[0];
      $("reaction-2").textContent = item.reactions[1];
    }
    if (item.kind === "multichoice") {
      $("mc-context").textContent = item.context || "";
      $("mc-question").textContent = item.question;
    }
    $("question").textContent = QUESTIONS[item.kind] || "";
    const options = item.options || info.options;
    const box = $("options");
    box.textContent = "";
    box.classList.toggle("stacked", item.kind === "multichoice");
    for (const o of options) {
      const b = el("button", { type: "button", class: "btn", "data-testid": `option-${o.value}`, "data-value": o.value });
      b.textContent = o.label;
      if (o.key) b.appendChild(el("span", { class: "key" }, `[${o.key}]`));
      b.addEventListener("click", () => answer(o.value));
      box.appendChild(b);
    }
    $("item-error").hidden = true;
  }

  async function answer(value) {
    if (busy || !current) return;
    busy = true;
    for (const b of $("options").querySelectorAll("button")) b.disabled = true;
    try {
      await api("POST", `/api/studies/${encodeURIComponent(studyId)}/judgments`, { item_id: current.id, answer: value });
    } catch (err) {
      if (err.status !== 409) {
        $("item-error").textContent = err.message;
        $("item-error").hidden = false;
        for (const b of $("options").querySelectorAll("button")) b.disabled = false;
        busy = false;
        return;
      }
    }
    current = null;
    if (assignmentId) countAnswer();
    await next();
  }

  document.addEventListener("keydown", (ev) => {
    if (!current || busy || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const options = current.options || info.options;
    const hit = options.find((o) => o.key === ev.key);
    if (hit) {
      ev.preventDefault();
      answer(hit.value);
    }
  });

  async function start() {
    if (!studyId) {
      fatal("This link does not name a study.");
      return;
    }
    try {
      info = await api("GET", `/api/studies/${encodeURIComponent(studyId)}`);
    } catch (err) {
      fatal(err.status === 404 ? "This study does not exist." : err.message);
      return;
    }
    renderInstructions();
    if (preview) {
      showPreview();
      return;
    }
    platform = await loadPlatform();
    $("consent-agree").addEventListener("click", agree);
    if (sessionStorage.getItem(tokenKey)) {
      await next();
    } else {
      show("consent");
    }
  }

  start();
})();
