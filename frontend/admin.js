// Researcher dashboard: plain JS over /admin/api. The server decides everything; this only shows it.
"use strict";

const state = { csrf: null, tab: "live", queue: [], current: 0, selected: new Set(), timer: null };
const $ = (sel) => document.querySelector(sel);
const CHARTS = ["subjectivity", "polarity", "emotion_by_genre_questioner", "emotion_by_genre_answerer", "top_words"];

async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json" };
  if (options.method && options.method !== "GET") headers["X-CSRF-Token"] = state.csrf;
  const reply = await fetch("/admin/api" + path, { credentials: "same-origin", ...options, headers });
  if (reply.status === 401) { showLogin(); throw new Error("Please log in."); }
  if (!reply.ok) {
    let message = reply.statusText;
    try { const body = await reply.json(); message = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail); } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return reply.json();
}

function toast(text, bad = false) {
  const el = $("#toast");
  el.textContent = text;
  el.className = bad ? "show bad" : "show";
  clearTimeout(el._t);
  el._t = setTimeout(() => { el.className = ""; }, 3500);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(child ?? ""));
  return node;
}

function showLogin() {
  $("#login").hidden = false;
  $("#tabs").hidden = true;
  for (const id of ["live", "review", "charts", "evals"]) $("#" + id).hidden = true;
  clearInterval(state.timer);
}

function showTab(tab) {
  state.tab = tab;
  $("#login").hidden = true;
  $("#tabs").hidden = false;
  for (const b of document.querySelectorAll("#tabs [data-tab]")) b.classList.toggle("active", b.dataset.tab === tab);
  for (const id of ["live", "review", "charts", "evals"]) $("#" + id).hidden = id !== tab;
  clearInterval(state.timer);
  if (tab === "live") { refreshLive(); state.timer = setInterval(refreshLive, 2000); }
  if (tab === "review") loadQueue();
  if (tab === "charts") loadCharts();
  if (tab === "evals") { loadEvals(); state.timer = setInterval(loadEvals, 5000); }
}

// ---------------------------------------------------------------- live operations

async function refreshLive() {
  let live, stimuli;
  try { [live, stimuli] = await Promise.all([api("/live"), api("/stimuli")]); } catch (e) { return; }
  const w = live.waiting;
  $("#waiting-total").textContent = w.total;
  $("#waiting-detail").textContent =
    `questioner ${w.questioner.count} · answerer ${w.answerer.count} · either ${w.either.count}` +
    (w.total ? ` · longest ${Math.max(w.questioner.longest_wait_s, w.answerer.longest_wait_s, w.either.longest_wait_s).toFixed(0)} s` : "");
  $("#active-count").textContent = live.active.length;
  $("#complete-count").textContent = live.counts.dialogs.complete;
  const pct = (x) => (x === null ? "–" : (100 * x).toFixed(0) + "%");
  $("#rates").textContent = `completed ${pct(live.rates.completion)} · abandoned ${pct(live.rates.abandonment)} · timed out ${pct(live.rates.timeout)}`;
  $("#intake-state").textContent = live.paused ? "paused" : "open";
  $("#intake-toggle").textContent = live.paused ? "Resume intake" : "Pause intake";
  $("#intake-toggle").dataset.paused = live.paused ? "1" : "0";
  const body = $("#active-table tbody");
  body.replaceChildren(...live.active.map((d) => el("tr", {},
    el("td", {}, d.dialog_id.slice(0, 8)), el("td", {}, d.stage), el("td", {}, `${d.round}/${d.rounds}`),
    el("td", {}, d.turn || "–"), el("td", {}, d.seconds_left === null ? "–" : `${Math.max(0, d.seconds_left).toFixed(0)} s`),
    el("td", {}, `${d.connected.questioner ? "Q" : "q?"} ${d.connected.answerer ? "A" : "a?"}`))));
  const sbody = $("#stimuli-table tbody");
  sbody.replaceChildren(...stimuli.map((s) => {
    const input = el("input", { type: "number", min: "1", value: s.target, "aria-label": `target for ${s.stimulus_id}` });
    input.addEventListener("change", () => setTarget(s.stimulus_id, input.value));
    return el("tr", {}, el("td", {}, s.stimulus_id), el("td", {}, s.title || ""), el("td", {}, String(s.complete)),
      el("td", {}, String(s.running)), el("td", {}, input));
  }));
  $("#updated").textContent = "Updated " + new Date(live.at * 1000).toLocaleTimeString();
}

async function setTarget(id, value) {
  try { await api(`/stimuli/${encodeURIComponent(id)}/target`, { method: "POST", body: JSON.stringify({ target: Number(value) }) }); toast("Target saved"); }
  catch (e) { toast(e.message, true); }
}

async function toggleIntake() {
  const paused = $("#intake-toggle").dataset.paused !== "1";
  try { await api("/intake", { method: "POST", body: JSON.stringify({ paused }) }); refreshLive(); }
  catch (e) { toast(e.message, true); }
}

// ---------------------------------------------------------------- review

async function loadQueue() {
  state.queue = await api(`/review?verdict=${$("#verdict-filter").value}&limit=200`);
  state.selected.clear();
  state.current = Math.min(state.current, Math.max(0, state.queue.length - 1));
  renderQueue();
  if (state.queue.length) openDialog(state.current); else $("#dialog-view").replaceChildren(el("p", { class: "hint" }, "Nothing waiting here."));
}

function renderQueue() {
  $("#queue-list").replaceChildren(...state.queue.map((item, i) => {
    const box = el("input", { type: "checkbox", "aria-label": "select" });
    box.checked = state.selected.has(item.dialog_id);
    box.addEventListener("change", () => { box.checked ? state.selected.add(item.dialog_id) : state.selected.delete(item.dialog_id); });
    return el("li", { class: i === state.current ? "current" : "", "data-dialog": item.dialog_id, onclick: (e) => { if (e.target !== box) openDialog(i); } },
      box, el("span", { class: "qid" }, item.dialog_id.slice(0, 8)), el("small", {}, item.summary));
  }));
}

async function openDialog(i) {
  state.current = i;
  renderQueue();
  const id = state.queue[i].dialog_id;
  const d = await api(`/dialogs/${id}`);
  const view = $("#dialog-view");
  const turns = d.turns.map((t) => el("div", { class: `turn ${t.role} ${t.flags.length ? "flagged" : ""}` },
    el("span", { class: "who" }, `${t.round}${t.role === "questioner" ? "Q" : "A"}`), el("span", {}, t.text),
    ...t.flags.map((f) => el("span", { class: `flag ${f.severity}`, title: f.message || "" }, f.id))));
  const order = ["before_reveal", "after_reveal", "answerer"];
  const forms = order.filter((p) => d.responses[p]).map((phase) => [phase, d.responses[phase]]).map(([phase, r]) => el("div", { class: "form" },
    el("b", {}, (phase === "answerer" ? "answerer" : "questioner " + phase.replace("_", " ")) + ": "), el("span", { class: "emotion" }, r.emotion.replace("_", " ")), " — ", r.explanation,
    r.scores ? el("small", {}, ` (polarity ${r.scores.polarity}, subjectivity ${r.scores.subjectivity})`) : ""));
  view.replaceChildren(
    el("div", { class: "dialog-head" },
      el("img", { src: `/admin/api/dialogs/${id}/image`, alt: "stimulus", class: "stimulus" }),
      el("div", {}, el("h3", {}, d.stimulus.title || d.stimulus.id),
        ...d.stimulus.opinions.map((o) => el("p", { class: "opinion" }, el("b", {}, o.emotion + ": "), o.text)),
        el("p", {}, el("b", {}, "QC: "), d.qc ? `${d.qc.verdict} — ${d.qc.summary}` : "not run"),
        d.review ? el("p", { class: "decided" }, `Decided: ${d.review.decision} by ${d.review.reviewer}`) : "")),
    el("div", { class: "turns" }, ...turns), el("div", { class: "forms" }, ...forms),
    el("div", { class: "actions" },
      el("button", { onclick: () => decide([id], "accept"), "data-testid": "accept" }, "Accept (a)"),
      el("button", { onclick: () => decide([id], "accept", 50), "data-testid": "bonus" }, "Accept + bonus (b)"),
      el("button", { class: "danger", onclick: () => decide([id], "reject"), "data-testid": "reject" }, "Reject (r)")));
}

async function decide(ids, decision, bonus = 0) {
  if (!ids.length) { toast("Select dialogs first", true); return; }
  let reason = null;
  if (decision === "reject") {
    reason = window.prompt("Reason for rejecting (the worker will see it):");
    if (!reason) return;
  }
  if (bonus) {
    const cents = window.prompt("Bonus in cents:", String(bonus));
    if (cents === null) return;
    bonus = Number(cents);
  }
  try {
    await api("/reviews", { method: "POST", body: JSON.stringify({ dialog_ids: ids, decision, reason, bonus_cents: bonus }) });
    toast(`${decision === "reject" ? "Rejected" : "Accepted"} ${ids.length}`);
    await loadQueue();
  } catch (e) { toast(e.message, true); }
}

function onKey(e) {
  if (state.tab !== "review" || ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName) || !state.queue.length) return;
  const id = state.queue[state.current].dialog_id;
  if (e.key === "j") openDialog(Math.min(state.current + 1, state.queue.length - 1));
  else if (e.key === "k") openDialog(Math.max(state.current - 1, 0));
  else if (e.key === "a") decide([id], "accept");
  else if (e.key === "r") decide([id], "reject");
  else if (e.key === "b") decide([id], "accept", 50);
  else if (e.key === "x") { state.selected.has(id) ? state.selected.delete(id) : state.selected.add(id); renderQueue(); }
}

// ---------------------------------------------------------------- charts

async function loadCharts() {
  const data = await api("/charts");
  const c = data.emotion_change_after_reveal;
  $("#change-rate").textContent = c.dialogs
    ? `Questioners changed their emotion after the reveal in ${c.changed} of ${c.dialogs} dialogs (${(100 * c.rate).toFixed(0)}%).`
    : "No dialogs with both questioner answers yet.";
  const stamp = Date.now();
  $("#chart-list").replaceChildren(...CHARTS.map((name) =>
    el("figure", { class: "card" }, el("img", { src: `/admin/api/charts/${name}.svg?t=${stamp}`, alt: name, "data-testid": `chart-${name}` }))));
}

// ---------------------------------------------------------------- evaluations

function headline(summary) {
  if (!summary) return "";
  return Object.entries(summary).slice(0, 4)
    .map(([k, v]) => `${k} ${typeof v === "number" ? (Math.abs(v) < 10 ? v.toFixed(3) : v.toFixed(1)) : v}`).join(" · ");
}

async function loadEvals() {
  let runs;
  try { runs = await api("/eval-runs"); } catch (e) { return; }
  $("#evals-table tbody").replaceChildren(...runs.map((r) => el("tr", { "data-run": r.id, onclick: () => openEval(r.id), class: "clickable" },
    el("td", {}, r.id.slice(0, 8)), el("td", {}, r.task), el("td", {}, r.model), el("td", {}, r.split),
    el("td", {}, r.backend), el("td", {}, r.trigger), el("td", { class: `status ${r.status}` }, r.status),
    el("td", {}, headline(r.summary)))));
}

async function openEval(id) {
  const run = await api(`/eval-runs/${encodeURIComponent(id)}`);
  $("#eval-detail").hidden = false;
  $("#eval-title").textContent = `${run.task} · ${run.model} · ${run.status}`;
  $("#eval-results").textContent = run.results ? JSON.stringify(run.results.metrics || run.results, null, 2) : (run.error || "No results yet.");
}

// ---------------------------------------------------------------- wiring

async function start() {
  $("#login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const reply = await fetch("/admin/api/login", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: form.get("username"), password: form.get("password") }) });
    if (!reply.ok) { $("#login-error").textContent = "Unknown user or wrong password."; return; }
    const body = await reply.json();
    state.csrf = body.csrf;
    $("#who").textContent = body.username;
    $("#login-error").textContent = "";
    showTab("live");
  });
  for (const b of document.querySelectorAll("#tabs [data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#logout").addEventListener("click", async () => { await api("/logout", { method: "POST" }).catch(() => {}); showLogin(); });
  $("#intake-toggle").addEventListener("click", toggleIntake);
  $("#verdict-filter").addEventListener("change", loadQueue);
  $("#select-all").addEventListener("change", (e) => { state.selected = new Set(e.target.checked ? state.queue.map((q) => q.dialog_id) : []); renderQueue(); });
  $("#bulk-accept").addEventListener("click", () => decide([...state.selected], "accept"));
  $("#bulk-reject").addEventListener("click", () => decide([...state.selected], "reject"));
  document.addEventListener("keydown", onKey);
  try {
    const me = await fetch("/admin/api/me", { credentials: "same-origin" });
    if (me.ok) { const body = await me.json(); state.csrf = body.csrf; $("#who").textContent = body.username; showTab("live"); return; }
  } catch (_) { /* not logged in */ }
  showLogin();
}

start();
