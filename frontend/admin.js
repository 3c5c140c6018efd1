// Researcher dashboard: plain JS over /admin/api. The server decides everything; this only shows it.
"use strict";

const state = {
  csrf: null, tab: "live", queue: [], current: 0, viewing: null, selected: new Set(), timer: null,
  stream: null, retry: null, liveMode: null,
  workers: { sort: "violations", order: "desc", offset: 0, limit: 50, total: 0, open: null }, study: null,
};
const TABS = ["live", "review", "workers", "charts", "studies", "evals"];
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
  for (const id of TABS) $("#" + id).hidden = true;
  stopTimers();
}

function stopTimers() {
  clearInterval(state.timer);
  clearTimeout(state.retry);
  if (state.stream) { state.stream.close(); state.stream = null; }
}

function showTab(tab, dialogId = null) {
  state.tab = tab;
  $("#login").hidden = true;
  $("#tabs").hidden = false;
  for (const b of document.querySelectorAll("#tabs [data-tab]")) b.classList.toggle("active", b.dataset.tab === tab);
  for (const id of TABS) $("#" + id).hidden = id !== tab;
  stopTimers();
  if (tab === "live") startLive();
  if (tab === "review") loadQueue(dialogId);
  if (tab === "workers") loadWorkers();
  if (tab === "charts") loadCharts();
  if (tab === "studies") loadStudies();
  if (tab === "evals") { loadEvals(); state.timer = setInterval(loadEvals, 5000); }
}

// A link like #dialog=ID opens that dialog in the review view (from the Workers tab, or a new window).
function followHash() {
  const m = /^#dialog=(.+)$/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, "", location.pathname + location.search); // the same link works again
  showTab("review", decodeURIComponent(m[1]));
  return true;
}

// ---------------------------------------------------------------- live operations
// The server pushes the live state (Server-Sent Events) when it changes; if the stream fails the
// page polls every 2 s and tries the stream again later.

function startLive() {
  stopTimers();
  if (!window.EventSource) { pollLive(); return; }
  const stream = new EventSource("/admin/api/live/stream");
  state.stream = stream;
  stream.addEventListener("live", (e) => { setLiveMode("pushed"); renderLive(JSON.parse(e.data)); });
  stream.addEventListener("bye", () => { stream.close(); if (state.tab === "live" && state.stream === stream) startLive(); });
  stream.onerror = () => {
    stream.close();
    if (state.stream !== stream) return;
    state.stream = null;
    if (state.tab === "live") pollLive();
  };
}

function pollLive() {
  setLiveMode("polling");
  clearInterval(state.timer);
  refreshLive();
  state.timer = setInterval(refreshLive, 2000);
  clearTimeout(state.retry);
  state.retry = setTimeout(() => { if (state.tab === "live") startLive(); }, 20000);
}

function setLiveMode(mode) {
  state.liveMode = mode;
  $("#live-mode").textContent = mode === "pushed" ? "· pushed by the server" : "· polling every 2 s";
  $("#live-mode").dataset.mode = mode;
}

async function refreshLive() {
  let live, stimuli;
  try { [live, stimuli] = await Promise.all([api("/live"), api("/stimuli")]); } catch (e) { return; }
  renderLive({ live, stimuli });
}

function renderLive({ live, stimuli }) {
  const w = live.waiting;
  $("#waiting-total").textContent = w.total;
  $("#waiting-detail").textContent =
    `questioner ${w.questioner.count} · answerer ${w.answerer.count} · either ${w.either.count}` +
    (w.total ? ` · longest ${Math.max(w.questioner.longest_wait_s, w.answerer.longest_wait_s, w.either.longest_wait_s).toFixed(0)} s` : "");
  $("#active-count").textContent = live.active.length;
  $("#complete-count").textContent = live.counts.dialogs.complete;
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
  if (sbody.contains(document.activeElement)) return; // do not take a target away from someone typing it
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
  try { await api("/intake", { method: "POST", body: JSON.stringify({ paused }) }); if (!state.stream) refreshLive(); }
  catch (e) { toast(e.message, true); }
}

// ---------------------------------------------------------------- review

async function loadQueue(dialogId = null) {
  state.queue = await api(`/review?verdict=${$("#verdict-filter").value}&limit=200`);
  state.selected.clear();
  state.current = Math.max(0, Math.min(state.current, state.queue.length - 1));
  const at = dialogId ? state.queue.findIndex((q) => q.dialog_id === dialogId) : -1;
  if (at >= 0) state.current = at;
  renderQueue();
  if (dialogId && at < 0) { state.current = -1; renderQueue(); showDialog(dialogId); }
  else if (state.queue.length) openDialog(state.current);
  else { state.viewing = null; $("#dialog-view").replaceChildren(el("p", { class: "hint" }, "Nothing waiting here.")); }
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
  await showDialog(state.queue[i].dialog_id);
}

async function showDialog(id) {
  state.viewing = id;
  let d;
  try { d = await api(`/dialogs/${encodeURIComponent(id)}`); } catch (e) { toast(e.message, true); return; }
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
  if (state.tab !== "review" || ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName) || !state.viewing) return;
  const id = state.viewing;
  if (e.key === "j" && state.queue.length) openDialog(Math.min(state.current + 1, state.queue.length - 1));
  else if (e.key === "k" && state.queue.length) openDialog(Math.max(state.current - 1, 0));
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

// ---------------------------------------------------------------- workers

const pct = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(0) + "%");
const num = (x) => (x === null || x === undefined ? "–" : String(x));
const secs = (ms) => (ms === null || ms === undefined ? "–" : (ms / 1000).toFixed(1) + " s");
const money = (cents) => (cents / 100).toFixed(2);

async function loadWorkers() {
  const w = state.workers;
  const min = Math.max(0, Number($("#min-violations").value) || 0);
  const query = new URLSearchParams({ sort: w.sort, order: w.order, limit: w.limit, offset: w.offset, min_violations: min });
  let page;
  try { page = await api(`/workers?${query}`); } catch (e) { toast(e.message, true); return; }
  w.total = page.total;
  for (const th of document.querySelectorAll("#workers-table th[data-sort]")) {
    th.classList.toggle("sorted", th.dataset.sort === w.sort);
    th.classList.toggle("asc", th.dataset.sort === w.sort && w.order === "asc");
    th.classList.toggle("desc", th.dataset.sort === w.sort && w.order === "desc");
  }
  $("#workers-count").textContent = page.total
    ? `${w.offset + 1}–${w.offset + page.rows.length} of ${page.total}` : "no workers";
  $("#workers-prev").disabled = w.offset === 0;
  $("#workers-next").disabled = w.offset + page.rows.length >= page.total;
  const cell = (text, extra = "") => el("td", { class: `num ${extra}` }, text);
  $("#workers-table tbody").replaceChildren(...page.rows.map((r) => el("tr", {
    class: "clickable" + (r.worker_id === w.open ? " selected" : ""), "data-worker": r.worker_id, onclick: () => openWorker(r.worker_id),
  },
  el("td", {}, r.worker_id, r.blocked ? el("span", { class: "blocked" }, " blocked") : ""),
  cell(r.dialogs.total), cell(r.dialogs.complete), cell(r.dialogs.abandoned), cell(r.dialogs.timed_out),
  cell(r.violations, r.violations ? "warn" : ""), cell(r.rule_bounces), cell(r.qc_soft_flags + r.qc_hard_flags),
  cell(r.messages), cell(num(r.mean_chars)), cell(num(r.median_chars)), cell(secs(r.median_latency_ms)),
  cell(r.final.accepted), cell(r.final.rejected), cell(r.final.to_review), cell(pct(r.acceptance_rate)),
  cell(money(r.payments.total_cents)))));
}

function sortWorkers(key) {
  const w = state.workers;
  if (w.sort === key) w.order = w.order === "desc" ? "asc" : "desc";
  else { w.sort = key; w.order = key === "worker_id" ? "asc" : "desc"; }
  w.offset = 0;
  loadWorkers();
}

function pageWorkers(step) {
  const w = state.workers;
  w.offset = Math.max(0, Math.min(w.offset + step * w.limit, Math.max(0, w.total - 1)));
  loadWorkers();
}

function table(headers, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows));
}

async function openWorker(id) {
  state.workers.open = id;
  for (const tr of document.querySelectorAll("#workers-table tbody tr")) tr.classList.toggle("selected", tr.dataset.worker === id);
  let d;
  try { d = await api(`/workers/${encodeURIComponent(id)}`); } catch (e) { toast(e.message, true); return; }
  const r = d.worker;
  const figure = (label, value) => el("div", {}, el("small", {}, label), el("b", {}, String(value)));
  const dialogs = d.dialogs.map((x) => el("tr", { "data-dialog": x.dialog_id },
    el("td", {}, el("a", { href: `#dialog=${encodeURIComponent(x.dialog_id)}`, "data-testid": "worker-dialog-link" }, x.dialog_id.slice(0, 8))),
    el("td", {}, x.role), el("td", {}, x.status + (x.end_reason && x.status !== "complete" ? ` (${x.end_reason})` : "")),
    el("td", { class: "num" }, x.messages), el("td", { class: "num" }, x.qc_flags.soft + x.qc_flags.hard),
    el("td", {}, x.qc_verdict || "–"), el("td", {}, x.decision ? x.decision + (x.bonus_cents ? ` +${money(x.bonus_cents)}` : "") : "–"),
    el("td", {}, x.started_at ? new Date(x.started_at).toLocaleString() : "")));
  const bounces = d.bounces.length
    ? d.bounces.map((b) => el("div", { class: "bounce" }, ...b.rules.map((rule) => el("span", { class: "flag hard" }, rule)),
      el("span", {}, b.text), b.dialog_id ? el("small", {}, " · ", el("a", { href: `#dialog=${encodeURIComponent(b.dialog_id)}` }, b.dialog_id.slice(0, 8))) : ""))
    : [el("p", { class: "hint" }, "No bounced messages.")];
  const payments = d.payments.length
    ? [table(["Assignment", "Outcome", "Base", "Bonus", "Status"], d.payments.map((p) => el("tr", {},
      el("td", {}, p.assignment_id.slice(0, 12)), el("td", {}, p.outcome), el("td", { class: "num" }, money(p.base_cents)),
      el("td", { class: "num" }, money(p.bonus_cents)), el("td", {}, p.status))))]
    : [el("p", { class: "hint" }, "No payments recorded.")];
  const box = $("#worker-detail");
  box.hidden = false;
  box.replaceChildren(
    el("h3", {}, `Worker ${r.worker_id}`, r.blocked ? el("span", { class: "blocked" }, " (blocked)") : "", el("small", { class: "hint" }, ` ${r.provider || ""}`)),
    el("div", { class: "figures" },
      figure("dialogs (complete / abandoned / timed out)", `${r.dialogs.total} (${r.dialogs.complete} / ${r.dialogs.abandoned} / ${r.dialogs.timed_out})`),
      figure("as questioner / answerer", `${r.roles.questioner} / ${r.roles.answerer}`),
      figure("bounced messages", r.rule_bounces),
      figure("QC rule flags (soft / hard)", `${r.qc_soft_flags} / ${r.qc_hard_flags}`),
      figure("message length mean / median", `${num(r.mean_chars)} / ${num(r.median_chars)} chars`),
      figure("median reply time", secs(r.median_latency_ms)),
      figure("QC verdicts (accept / review / reject)", `${r.qc.accept} / ${r.qc.review} / ${r.qc.reject}`),
      figure("researcher decisions (accept / reject)", `${r.decisions.accept} / ${r.decisions.reject}`),
      figure("final: accepted / rejected / to review", `${r.final.accepted} / ${r.final.rejected} / ${r.final.to_review}`),
      figure("paid (base + bonus) / review bonuses", `${money(r.payments.total_cents)} / ${money(r.review_bonus_cents)}`)),
    el("div", { class: "detail-grid" },
      el("div", {}, el("h4", {}, "Recent dialogs (open one in the review view)"),
        table(["Dialog", "Role", "Outcome", "Msgs", "QC flags", "QC", "Decision", "Started"], dialogs)),
      el("div", {}, el("h4", {}, "Bounced messages"), ...bounces, el("h4", {}, "Payments"), ...payments)));
}

// ---------------------------------------------------------------- human studies

function cellText(value, percent) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.every((v) => v === null) ? "–" : "[" + value.map((v) => cellText(v, percent)).join(", ") + "]";
  if (typeof value === "number" && !Number.isInteger(value)) return percent ? (100 * value).toFixed(1) + "%" : value.toFixed(3);
  if (typeof value === "number" && percent && (value === 0 || value === 1)) return (100 * value).toFixed(1) + "%";
  return String(value);
}

async function loadStudies() {
  let rows;
  try { rows = await api("/studies"); } catch (e) { toast(e.message, true); return; }
  $("#studies-table tbody").replaceChildren(...rows.map((s) => el("tr", { class: "clickable" + (s.id === state.study ? " selected" : ""), "data-study": s.id, onclick: () => openStudy(s.id) },
    el("td", {}, s.id.slice(0, 8)), el("td", {}, s.name), el("td", {}, s.kind), el("td", {}, s.status),
    el("td", { class: "num" }, s.items), el("td", { class: "num" }, s.valid_judgments), el("td", { class: "num" }, s.raters))));
  if (!rows.length) { $("#study-detail").hidden = true; return; }
  if (!rows.some((s) => s.id === state.study)) state.study = rows[0].id;
  openStudy(state.study);
}

async function openStudy(id) {
  state.study = id;
  for (const tr of document.querySelectorAll("#studies-table tbody tr")) tr.classList.toggle("selected", tr.dataset.study === id);
  let d;
  try { d = await api(`/studies/${encodeURIComponent(id)}`); } catch (e) { toast(e.message, true); return; }
  const s = d.results.study, sum = d.results.summary;
  $("#study-detail").hidden = false;
  $("#study-title").textContent = `${s.name} · ${s.kind} · ${sum.judgments_valid} valid judgments from ${sum.raters} raters`;
  $("#study-chart").src = `/admin/api/studies/${encodeURIComponent(id)}/chart.svg?t=${Date.now()}`;
  $("#study-tables").replaceChildren(...d.tables.map((t) => el("table", { "data-testid": "study-table" },
    el("caption", {}, t.title), el("thead", {}, el("tr", {}, ...t.columns.map((c) => el("th", {}, c)))),
    el("tbody", {}, ...t.rows.map((row) => el("tr", {}, ...row.map((v, i) => el("td", {}, cellText(v, t.percent.includes(i))))))))));
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
    if (!followHash()) showTab("live");
  });
  for (const b of document.querySelectorAll("#tabs [data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#logout").addEventListener("click", async () => { await api("/logout", { method: "POST" }).catch(() => {}); showLogin(); });
  $("#intake-toggle").addEventListener("click", toggleIntake);
  $("#verdict-filter").addEventListener("change", loadQueue);
  $("#select-all").addEventListener("change", (e) => { state.selected = new Set(e.target.checked ? state.queue.map((q) => q.dialog_id) : []); renderQueue(); });
  $("#bulk-accept").addEventListener("click", () => decide([...state.selected], "accept"));
  $("#bulk-reject").addEventListener("click", () => decide([...state.selected], "reject"));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => { if (!$("#tabs").hidden) followHash(); });
  for (const th of document.querySelectorAll("#workers-table th[data-sort]")) th.addEventListener("click", () => sortWorkers(th.dataset.sort));
  $("#min-violations").addEventListener("change", () => { state.workers.offset = 0; loadWorkers(); });
  $("#workers-prev").addEventListener("click", () => pageWorkers(-1));
  $("#workers-next").addEventListener("click", () => pageWorkers(1));
  try {
    const me = await fetch("/admin/api/me", { credentials: "same-origin" });
    if (me.ok) { const body = await me.json(); state.csrf = body.csrf; $("#who").textContent = body.username; if (!followHash()) showTab("live"); return; }
  } catch (_) { /* not logged in */ }
  showLogin();
}

start();
