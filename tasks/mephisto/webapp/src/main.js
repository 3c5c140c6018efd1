/* The Mephisto task page: frames the avd worker page with this agent's identity.
 *
 * Mephisto (mephisto-task) gives the agent and its initial data; the blueprint puts the avd
 * page URL in initialTaskData.avd_page. The avd page posts {type: "avd-done"} (or
 * "avd-lobby-timeout") to this frame when the worker's part is over; we then submit the
 * unit through Mephisto, which submits the HIT on MTurk. If this never happens (tab closed),
 * the blueprint's task runner submits for the worker once the avd server says "done".
 * No JSX, so esbuild needs no configuration.
 */
import React from "react";
import ReactDOM from "react-dom";
import { useMephistoTask } from "mephisto-task";

const h = React.createElement;

function Preview() {
  return h(
    "div",
    { style: { maxWidth: 720, margin: "2em auto", fontFamily: "sans-serif" } },
    h("h1", null, "Chat about an artwork with another person"),
    h(
      "p",
      null,
      "After you accept, you are paired with another worker. One of you sees an artwork and " +
        "describes it; the other asks questions about it. Then both say which emotion it gives them and why.",
    ),
  );
}

function Task({ page, onSubmit }) {
  const origin = new URL(page).origin;
  React.useEffect(() => {
    const listen = (event) => {
      if (event.origin !== origin || !event.data) return; // only the avd page may end the unit
      if (event.data.type === "avd-done") onSubmit({ completion_code: event.data.completion_code, outcome: "done" });
      if (event.data.type === "avd-lobby-timeout") onSubmit({ outcome: "lobby_timeout" });
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [origin, onSubmit]);
  return h("iframe", {
    src: page,
    title: "The task",
    style: { border: 0, width: "100%", height: "100vh" },
    allow: "clipboard-write",
  });
}

function MainApp() {
  const { blockedReason, isPreview, isLoading, initialTaskData, handleSubmit } = useMephistoTask();
  const [submitted, setSubmitted] = React.useState(false);
  const submit = React.useCallback(
    (data) => {
      if (submitted) return;
      setSubmitted(true);
      handleSubmit(data);
    },
    [submitted, handleSubmit],
  );
  if (blockedReason !== null) return h("p", null, "This task is not available to you: " + blockedReason);
  if (isPreview) return h(Preview);
  if (isLoading || !initialTaskData) return h("p", null, "Loading…");
  if (submitted) return h("p", null, "Thank you! Your work has been submitted.");
  return h(Task, { page: initialTaskData.avd_page, onSubmit: submit });
}

ReactDOM.render(h(MainApp), document.getElementById("app"));
