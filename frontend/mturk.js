/* MTurk (and Mephisto) mode of the worker page (loaded before worker.js; inactive without an assignmentId).
 *
 * MTurk frames our page with ?assignmentId=…&hitId=…&workerId=…&turkSubmitTo=…. Before the
 * worker accepts, assignmentId is ASSIGNMENT_ID_NOT_AVAILABLE: we show what the task is and
 * never start a session (no pairing in a preview). Once accepted, the session carries the
 * assignment so the server can pay it, and at the end the page posts the completion code to
 * `${turkSubmitTo}/mturk/externalSubmit`, which is how an ExternalQuestion HIT is submitted.
 *
 * With ?provider=mephisto the page sits in the Mephisto task's frame (tasks/mephisto/): the
 * assignment is the Mephisto agent, and at the end the page tells its parent frame
 * (postMessage "avd-done"), whose Mephisto client submits the unit.
 *
 * worker.js calls the hooks on window.avdPlatform (all optional): worker, preview,
 * sessionFields(), showPreview(), onDone(code), onLobbyTimeout(frame), onEnded(frame).
 */
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const assignmentId = params.get("assignmentId");
  if (!assignmentId) return; // not on MTurk: the page works as before

  const NOT_ACCEPTED = "ASSIGNMENT_ID_NOT_AVAILABLE";
  const requested = params.get("provider");
  const provider = ["mturk", "mephisto"].includes(requested) ? requested : "mturk-sandbox";
  const mephisto = provider === "mephisto";
  const hitId = params.get("hitId");
  const submitTo = (params.get("turkSubmitTo") || "").replace(/\/+$/, "");
  const preview = assignmentId === NOT_ACCEPTED;
  let pay = null; // the study's pay facts, from /api/providers/config

  const $ = (id) => document.getElementById(id);

  function dollars(cents) {
    return "$" + (cents / 100).toFixed(2);
  }

  async function loadPay() {
    if (pay) return pay;
    try {
      const reply = await fetch("/api/providers/config", { cache: "no-store" });
      if (reply.ok) pay = await reply.json();
    } catch (err) {
      /* the page still works; it just cannot quote amounts */
    }
    return pay;
  }

  function element(tag, attrs, text) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "testid") el.dataset.testid = value;
      else el.setAttribute(key, value);
    }
    if (text) el.textContent = text;
    return el;
  }

  /** A form that submits this assignment to MTurk with the given answer fields. */
  function submitForm(fields, label) {
    const form = element("form", { method: "POST", action: submitTo + "/mturk/externalSubmit", testid: "mturk-form" });
    form.className = "actions";
    const all = Object.assign({ assignmentId }, fields);
    for (const [name, value] of Object.entries(all)) {
      form.append(element("input", { type: "hidden", name, value: String(value) }));
    }
    const button = element("button", { type: "submit", class: "btn btn-primary", testid: "mturk-submit" }, label);
    form.append(button);
    form.addEventListener("submit", () => {
      button.disabled = true; // one submission; MTurk takes over the frame from here
      button.textContent = "Submitting…";
    });
    return form;
  }

  function place(screenId, node) {
    const screen = $(screenId);
    const old = screen.querySelector("[data-mturk]");
    if (old) old.remove();
    const box = element("div", { "data-mturk": "1", class: "mturk-box" });
    box.append(node);
    screen.append(box);
    return box;
  }

  function showPreview() {
    // The consent page already says what the task is; in a preview nothing can be started.
    for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== "screen-consent";
    document.body.dataset.screen = "preview";
    $("consent-agree").disabled = true;
    $("consent-decline").hidden = true;
    const note = element(
      "p",
      { class: "banner banner-info", role: "status", testid: "mturk-preview" },
      "This is a preview. Accept the HIT to take part; you will then be paired with another worker.",
    );
    const screen = $("screen-consent");
    screen.insertBefore(note, screen.firstChild.nextSibling);
    loadPay().then((p) => {
      if (!p) return;
      note.textContent +=
        " A finished dialog pays " +
        dollars(p.completed_cents) +
        " in total; if your partner leaves early you are still paid for your time (at least " +
        dollars(p.dropout_floor_cents) +
        ").";
    });
  }

  /** Mephisto: the parent frame (our Mephisto task page) submits the unit. */
  function tellParent(message) {
    if (window.parent && window.parent !== window) {
      window.parent.postMessage(Object.assign({ assignment_id: assignmentId }, message), "*");
    }
  }

  function onDone(code) {
    if (mephisto) {
      tellParent({ type: "avd-done", completion_code: code });
      place("screen-done", element("p", { testid: "mephisto-done" }, "Your work is being submitted for you."));
      return;
    }
    const box = place(
      "screen-done",
      submitForm({ completion_code: code }, "Submit the HIT"),
    );
    box.prepend(element("p", { testid: "mturk-done" }, "Last step: press the button to submit your work to Mechanical Turk."));
    const paste = document.querySelector("#screen-done .muted");
    if (paste) paste.hidden = true; // no code to paste: the button sends it
  }

  async function onLobbyTimeout() {
    const p = await loadPay();
    if (!p || !p.lobby_timeout_cents) return; // nothing is paid for waiting: try again, or return the HIT
    if (mephisto) {
      const note = "You can try again, or stop here and be paid " + dollars(p.lobby_timeout_cents) + " for waiting.";
      const button = element("button", { type: "button", class: "btn btn-primary", testid: "mturk-submit" }, "Stop here");
      button.addEventListener("click", () => tellParent({ type: "avd-lobby-timeout" }));
      place("screen-start", button).prepend(element("p", { testid: "mturk-lobby-pay" }, note));
      return;
    }
    const box = place("screen-start", submitForm({ outcome: "lobby_timeout" }, "Submit the HIT for the waiting time"));
    box.prepend(
      element(
        "p",
        { testid: "mturk-lobby-pay" },
        "You can try again, or submit the HIT now and be paid " + dollars(p.lobby_timeout_cents) + " for waiting.",
      ),
    );
  }

  function onEnded(frame) {
    if (!frame.by_you) return; // the partner left: a completion code follows
    place(
      "screen-ended",
      element(
        "p",
        { testid: "mturk-return" },
        mephisto
          ? "A dialog that was left unfinished cannot be submitted; please return the task."
          : "Please return this HIT on Mechanical Turk: a dialog that was left unfinished cannot be submitted.",
      ),
    );
  }

  window.avdPlatform = {
    provider,
    preview,
    worker: params.get("workerId"),
    sessionFields: () => ({ provider, assignment_id: assignmentId, hit_id: hitId, turk_submit_to: submitTo || null }),
    showPreview,
    onDone,
    onLobbyTimeout,
    onEnded,
  };
})();
