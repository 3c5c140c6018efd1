"""A fake Amazon Mechanical Turk requester endpoint for tests: real HTTP, botocore's own model.

There is no network to AWS here and moto has no MTurk, so tests point boto3 at this
server through ``endpoint_url``. It is kept honest in three ways:

- every request is checked against botocore's MTurk service model (operation name, input
  members, required members, types, enums, lengths and patterns); a bad one gets the error
  the real service would send (``ValidationException``/``RequestError``, HTTP 400);
- every response is shaped by the operation's output shape: the fake may only return
  members the model defines (anything else is a bug in the fake and raises);
- state follows the documented MTurk semantics: HIT status and assignment counts, lifetime
  and assignment deadlines, auto-approval after ``AutoApprovalDelayInSeconds``, SendBonus
  idempotent per ``UniqueRequestToken`` (a repeat is refused), approve only Submitted (or
  Rejected with OverrideRejection), reject only Submitted and only with feedback, DeleteHIT
  only when Reviewable with every submission decided, qualification requirements and
  blocks enforced when a worker accepts, a prepaid balance debited with MTurk's 20% fee.

Deviations, on purpose: ExternalURL may be plain ``http://127.0.0.1`` (tests have no TLS);
``require_bonus_token`` (on by default) refuses SendBonus without a token, which MTurk
allows but our code must never do; time is a controllable clock (``advance``).

A test acts as a worker with ``add_worker``, ``accept``, ``worker_url``, ``submit``,
``return_assignment`` and ``abandon``; a browser submits to ``/mturk/externalSubmit`` on
this same server, as it would to ``turkSubmitTo`` on MTurk. ``hold`` makes one call hang
after it was applied (a lost response), so a test can kill the caller mid-run.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import secrets
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import botocore.session
import pytest
from botocore.model import OperationModel, Shape

TARGET_PREFIX = "MTurkRequesterServiceV20170117."
EXTERNAL_NS = (
    "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd"
)
ANSWER_NS = (
    "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd"
)
PERCENT_APPROVED = "000000000000000000L0"
NUMBER_APPROVED = "00000000000000000040"
LOCALE = "00000000000000000071"
SYSTEM_QUALS = {PERCENT_APPROVED, NUMBER_APPROVED, LOCALE}


class MTurkFault(Exception):
    """An error response: botocore reads ``__type`` as the error code."""

    def __init__(self, message: str, code: str = "RequestError", status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message


def _new_id(n: int = 30) -> str:
    return "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(n))


def _cents(amount: str) -> int:
    whole, _, frac = amount.partition(".")
    return int(whole or 0) * 100 + int((frac + "00")[:2])


def _dollars(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _fee(cents: int, assignments: int = 1) -> int:
    """MTurk's commission: 20% (40% for HITs with 10+ assignments), at least one cent."""
    if cents <= 0:
        return 0
    rate = 0.4 if assignments >= 10 else 0.2
    return max(1, math.ceil(cents * rate - 1e-9))


# ---------------------------------------------------------------------- model checks


def validate(shape: Shape, value: Any, path: str = "") -> list[str]:
    """Problems with ``value`` against a botocore input shape (empty list: valid)."""
    errors: list[str] = []
    where = path or shape.name
    meta = shape.metadata
    kind = shape.type_name
    if kind == "structure":
        if not isinstance(value, dict):
            return [f"{where}: expected an object"]
        for name in getattr(shape, "required_members", []):
            if name not in value:
                errors.append(f"{where}: missing required member {name}")
        for name, member_value in value.items():
            if name not in shape.members:
                errors.append(f"{where}: unknown member {name}")
                continue
            errors += validate(shape.members[name], member_value, f"{where}.{name}")
    elif kind == "list":
        if not isinstance(value, list):
            return [f"{where}: expected a list"]
        if "min" in meta and len(value) < meta["min"]:
            errors.append(f"{where}: fewer than {meta['min']} items")
        for i, item in enumerate(value):
            errors += validate(shape.member, item, f"{where}[{i}]")
    elif kind == "map":
        if not isinstance(value, dict):
            return [f"{where}: expected a map"]
    elif kind == "string":
        if not isinstance(value, str):
            return [f"{where}: expected a string"]
        if "min" in meta and len(value) < meta["min"]:
            errors.append(f"{where}: shorter than {meta['min']}")
        if "max" in meta and len(value) > meta["max"]:
            errors.append(f"{where}: longer than {meta['max']}")
        if "pattern" in meta and not re.search(meta["pattern"], value):
            errors.append(f"{where}: does not match {meta['pattern']}")
        if shape.enum and value not in shape.enum:
            errors.append(f"{where}: {value!r} is not one of {shape.enum}")
    elif kind in ("integer", "long"):
        if isinstance(value, bool) or not isinstance(value, int):
            return [f"{where}: expected an integer"]
        if "min" in meta and value < meta["min"]:
            errors.append(f"{where}: below {meta['min']}")
        if "max" in meta and value > meta["max"]:
            errors.append(f"{where}: above {meta['max']}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            errors.append(f"{where}: expected a boolean")
    elif kind == "timestamp" and (isinstance(value, bool) or not isinstance(value, (int, float, str))):
        errors.append(f"{where}: expected a timestamp")
    return errors


def shape_output(shape: Shape | None, value: Any, path: str = "") -> Any:
    """Serialise ``value`` as the JSON protocol would; members the model lacks are a fake bug."""
    if shape is None:
        return {}
    kind = shape.type_name
    where = path or shape.name
    if kind == "structure":
        unknown = set(value) - set(shape.members)
        if unknown:
            raise AssertionError(f"fake MTurk returns {sorted(unknown)} not in {where}")
        return {
            k: shape_output(shape.members[k], v, f"{where}.{k}") for k, v in value.items() if v is not None
        }
    if kind == "list":
        return [shape_output(shape.member, v, f"{where}[]") for v in value]
    if kind == "timestamp":
        return value.timestamp() if isinstance(value, datetime) else float(value)
    if kind in ("integer", "long"):
        assert isinstance(value, int) and not isinstance(value, bool), where
    if kind == "string":
        assert isinstance(value, str), where
        if shape.enum:
            assert value in shape.enum, f"{where}: {value!r}"
    return value


# ---------------------------------------------------------------------- state


@dataclass
class FakeWorker:
    id: str
    country: str = "US"
    approval_rate: int = 99
    approved_hits: int = 5000


@dataclass
class FakeAssignment:
    id: str
    hit_id: str
    worker_id: str
    status: str  # Accepted | Submitted | Approved | Rejected | Returned | Abandoned
    accept_time: float
    deadline: float
    submit_time: float | None = None
    auto_approval_time: float | None = None
    approval_time: float | None = None
    rejection_time: float | None = None
    answer: str | None = None
    feedback: str | None = None
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class Hold:
    operation: str
    nth: int
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    seen: int = 0


class FakeMTurk:
    def __init__(self, balance_cents: int = 1_000_000, require_bonus_token: bool = True) -> None:
        self.model = botocore.session.get_session().get_service_model("mturk")
        self.lock = threading.RLock()
        self.offset = 0.0
        self.balance = balance_cents
        self.require_bonus_token = require_bonus_token
        self.hit_types: dict[str, dict[str, Any]] = {}
        self.hits: dict[str, dict[str, Any]] = {}
        self.assignments: dict[str, FakeAssignment] = {}
        self.bonuses: list[dict[str, Any]] = []
        self.tokens: dict[str, str] = {}  # UniqueRequestToken -> what it created
        self.qual_types: dict[str, dict[str, Any]] = {}
        self.worker_quals: dict[tuple[str, str], int] = {}
        self.blocks: dict[str, str] = {}
        self.workers: dict[str, FakeWorker] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.holds: list[Hold] = []
        self.external_submits: list[dict[str, str]] = []
        self._ids = itertools.count(1)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    # -------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeMTurk:
        self.thread.start()
        return self

    def stop(self) -> None:
        for hold in self.holds:
            hold.release.set()
        self.server.shutdown()
        self.server.server_close()

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock: deadlines pass, HITs expire, submissions get auto-approved."""
        with self.lock:
            self.offset += seconds
            self._tick()

    def hold(self, operation: str, nth: int = 1) -> Hold:
        """Make the ``nth`` call of ``operation`` hang *after* it was applied (a lost response)."""
        h = Hold(operation, nth)
        self.holds.append(h)
        return h

    def count(self, operation: str) -> int:
        return sum(1 for op, _ in self.calls if op == operation)

    # -------------------------------------------------------------- worker side

    def add_worker(self, worker_id: str | None = None, **profile: Any) -> str:
        worker_id = worker_id or "A" + _new_id(13)
        self.workers[worker_id] = FakeWorker(worker_id, **profile)
        return worker_id

    def accept(self, hit_id: str, worker_id: str) -> str:
        """A worker accepts a HIT: checks availability, blocks and qualification requirements."""
        with self.lock:
            self._tick()
            hit = self._hit(hit_id)
            if self._hit_status(hit) != "Assignable":
                raise MTurkFault("This HIT is no longer available.")
            if worker_id in self.blocks:
                raise MTurkFault("You are blocked by this requester.")
            htype = self.hit_types[hit["HITTypeId"]]
            for req in htype.get("QualificationRequirements", []):
                if req.get("ActionsGuarded", "Accept") and not self._meets(worker_id, req):
                    raise MTurkFault(f"Worker does not meet qualification {req['QualificationTypeId']}.")
            if any(
                a.hit_id == hit_id and a.worker_id == worker_id and a.status not in ("Returned", "Abandoned")
                for a in self.assignments.values()
            ):
                raise MTurkFault("You already worked on this HIT.")
            now = self.now()
            a = FakeAssignment(
                id=_new_id(),
                hit_id=hit_id,
                worker_id=worker_id,
                status="Accepted",
                accept_time=now,
                deadline=now + htype["AssignmentDurationInSeconds"],
            )
            self.assignments[a.id] = a
            return a.id

    def external_url(self, hit_id: str) -> str:
        root = ET.fromstring(self._hit(hit_id)["Question"])
        return root.find(f"{{{EXTERNAL_NS}}}ExternalURL").text.strip()  # type: ignore[union-attr]

    def worker_url(self, hit_id: str, assignment_id: str | None = None, worker_id: str | None = None) -> str:
        """The URL MTurk frames for a worker: a preview without an assignment."""
        params = {"assignmentId": assignment_id or "ASSIGNMENT_ID_NOT_AVAILABLE", "hitId": hit_id}
        if assignment_id:
            params |= {
                "workerId": worker_id or self.assignments[assignment_id].worker_id,
                "turkSubmitTo": self.url,
            }
        base = self.external_url(hit_id)
        return base + ("&" if "?" in base else "?") + urllib.parse.urlencode(params)

    def submit(self, assignment_id: str, answers: dict[str, str]) -> None:
        with self.lock:
            self._tick()
            a = self.assignments.get(assignment_id)
            if a is None or a.status != "Accepted":
                raise MTurkFault(f"Assignment {assignment_id} cannot be submitted now.")
            now = self.now()
            a.status = "Submitted"
            a.submit_time = now
            a.fields = dict(answers)
            a.answer = self._answer_xml(answers)
            delay = self.hit_types[self.hits[a.hit_id]["HITTypeId"]]["AutoApprovalDelayInSeconds"]
            a.auto_approval_time = now + delay

    def return_assignment(self, assignment_id: str) -> None:
        with self.lock:
            a = self.assignments[assignment_id]
            if a.status != "Accepted":
                raise MTurkFault("Only an accepted assignment can be returned.")
            a.status = "Returned"

    def abandon(self, assignment_id: str) -> None:
        """The worker walks away: the assignment's deadline passes."""
        with self.lock:
            a = self.assignments[assignment_id]
            self.advance(max(0.0, a.deadline - self.now()) + 1)

    # -------------------------------------------------------------- semantics

    def _hit(self, hit_id: str) -> dict[str, Any]:
        hit = self.hits.get(hit_id)
        if hit is None or hit["disposed"]:
            raise MTurkFault(f"Hit {hit_id} does not exist.", "RequestError")
        return hit

    def _counts(self, hit: dict[str, Any]) -> tuple[int, int, int, int]:
        mine = [a for a in self.assignments.values() if a.hit_id == hit["HITId"]]
        pending = sum(a.status == "Accepted" for a in mine)
        submitted = sum(a.status == "Submitted" for a in mine)
        decided = sum(a.status in ("Approved", "Rejected") for a in mine)
        expired = self.now() >= hit["Expiration"]
        available = 0 if expired else hit["MaxAssignments"] - pending - submitted - decided
        return pending, available, submitted, decided

    def _hit_status(self, hit: dict[str, Any]) -> str:
        if hit["disposed"]:
            return "Disposed"
        pending, available, submitted, decided = self._counts(hit)
        if available > 0:
            return "Assignable"
        if pending > 0:
            return "Unassignable"
        return "Reviewable"

    def _meets(self, worker_id: str, req: dict[str, Any]) -> bool:
        qid, comparator = req["QualificationTypeId"], req["Comparator"]
        worker = self.workers.get(worker_id) or FakeWorker(worker_id)
        if qid == LOCALE:
            have: Any = worker.country
        elif qid == PERCENT_APPROVED:
            have = worker.approval_rate
        elif qid == NUMBER_APPROVED:
            have = worker.approved_hits
        else:
            have = self.worker_quals.get((qid, worker_id))
        if comparator == "Exists":
            return have is not None
        if comparator == "DoesNotExist":
            return have is None
        if have is None:
            return False
        if qid == LOCALE:
            wanted = [loc["Country"] for loc in req.get("LocaleValues", [])]
            return (have in wanted) == (comparator in ("EqualTo", "In"))
        values = req.get("IntegerValues", [])
        ops = {
            "LessThan": lambda: have < values[0],
            "LessThanOrEqualTo": lambda: have <= values[0],
            "GreaterThan": lambda: have > values[0],
            "GreaterThanOrEqualTo": lambda: have >= values[0],
            "EqualTo": lambda: have == values[0],
            "NotEqualTo": lambda: have != values[0],
            "In": lambda: have in values,
            "NotIn": lambda: have not in values,
        }
        return ops[comparator]()

    def _tick(self) -> None:
        now = self.now()
        for a in self.assignments.values():
            if a.status == "Accepted" and now > a.deadline:
                a.status = "Abandoned"
            elif a.status == "Submitted" and a.auto_approval_time is not None and now >= a.auto_approval_time:
                self._pay_reward(a)
                a.status = "Approved"
                a.approval_time = now

    def _pay_reward(self, a: FakeAssignment) -> None:
        hit = self.hits[a.hit_id]
        reward = _cents(self.hit_types[hit["HITTypeId"]]["Reward"])
        cost = reward + _fee(reward, hit["MaxAssignments"])
        if cost > self.balance:
            raise MTurkFault("Your account does not have enough funds.")
        self.balance -= cost

    def _answer_xml(self, answers: dict[str, str]) -> str:
        root = ET.Element("QuestionFormAnswers", xmlns=ANSWER_NS)
        for key, value in answers.items():
            answer = ET.SubElement(root, "Answer")
            ET.SubElement(answer, "QuestionIdentifier").text = key
            ET.SubElement(answer, "FreeText").text = value
        return '<?xml version="1.0" encoding="ASCII"?>' + ET.tostring(root, encoding="unicode")

    def _hit_view(self, hit: dict[str, Any]) -> dict[str, Any]:
        htype = self.hit_types[hit["HITTypeId"]]
        pending, available, _submitted, decided = self._counts(hit)
        return {
            "HITId": hit["HITId"],
            "HITTypeId": hit["HITTypeId"],
            "HITGroupId": hit["HITTypeId"],
            "CreationTime": datetime.fromtimestamp(hit["CreationTime"], UTC),
            "Title": htype["Title"],
            "Description": htype["Description"],
            "Question": hit["Question"],
            "Keywords": htype.get("Keywords"),
            "HITStatus": self._hit_status(hit),
            "MaxAssignments": hit["MaxAssignments"],
            "Reward": htype["Reward"],
            "AutoApprovalDelayInSeconds": htype["AutoApprovalDelayInSeconds"],
            "Expiration": datetime.fromtimestamp(hit["Expiration"], UTC),
            "AssignmentDurationInSeconds": htype["AssignmentDurationInSeconds"],
            "RequesterAnnotation": hit.get("RequesterAnnotation"),
            "QualificationRequirements": htype.get("QualificationRequirements", []),
            "HITReviewStatus": "NotReviewed",
            "NumberOfAssignmentsPending": pending,
            "NumberOfAssignmentsAvailable": available,
            "NumberOfAssignmentsCompleted": decided,
        }

    def _assignment_view(self, a: FakeAssignment) -> dict[str, Any]:
        ts = lambda t: datetime.fromtimestamp(t, UTC) if t is not None else None  # noqa: E731
        return {
            "AssignmentId": a.id,
            "WorkerId": a.worker_id,
            "HITId": a.hit_id,
            "AssignmentStatus": a.status,
            "AutoApprovalTime": ts(a.auto_approval_time),
            "AcceptTime": ts(a.accept_time),
            "SubmitTime": ts(a.submit_time),
            "ApprovalTime": ts(a.approval_time),
            "RejectionTime": ts(a.rejection_time),
            "Deadline": ts(a.deadline),
            "Answer": a.answer,
            "RequesterFeedback": a.feedback,
        }

    def _visible(self, assignment_id: str) -> FakeAssignment:
        """Requesters see an assignment only once it was submitted."""
        a = self.assignments.get(assignment_id)
        if a is None or a.status not in ("Submitted", "Approved", "Rejected"):
            raise MTurkFault(f"Assignment {assignment_id} does not exist. (Not submitted.)")
        if self.hits[a.hit_id]["disposed"]:
            raise MTurkFault(f"Assignment {assignment_id} belongs to a deleted HIT.")
        return a

    def _qual(self, qid: str) -> dict[str, Any]:
        q = self.qual_types.get(qid)
        if q is None or q.get("deleted"):
            raise MTurkFault(f"QualificationType {qid} does not exist.")
        return q

    @staticmethod
    def _page(items: list[Any], params: dict[str, Any]) -> tuple[list[Any], str | None]:
        start = int(params.get("NextToken") or 0)
        size = params.get("MaxResults") or 10
        chunk = items[start : start + size]
        return chunk, (str(start + size) if start + size < len(items) else None)

    # -------------------------------------------------------------- operations

    def op_GetAccountBalance(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"AvailableBalance": _dollars(self.balance), "OnHoldBalance": "0.00"}

    def op_CreateHITType(self, p: dict[str, Any]) -> dict[str, Any]:
        if _cents(p["Reward"]) < 1:
            raise MTurkFault("The reward must be at least $0.01.")
        if not 30 <= p["AssignmentDurationInSeconds"] <= 31_536_000:
            raise MTurkFault("AssignmentDurationInSeconds must be between 30 and 31536000.")
        for req in p.get("QualificationRequirements", []):
            if req["QualificationTypeId"] not in SYSTEM_QUALS:
                self._qual(req["QualificationTypeId"])
        values = {"AutoApprovalDelayInSeconds": 2_592_000} | p  # MTurk's default: 30 days
        for type_id, existing in self.hit_types.items():
            if existing == values:
                return {"HITTypeId": type_id}  # the same properties give the same HIT type
        type_id = _new_id()
        self.hit_types[type_id] = values
        return {"HITTypeId": type_id}

    def op_CreateHITWithHITType(self, p: dict[str, Any]) -> dict[str, Any]:
        token = p.get("UniqueRequestToken")
        if token and token in self.tokens:
            raise MTurkFault(
                f"The HIT with ID {self.tokens[token]} already exists for this UniqueRequestToken "
                f"(RequestId {_new_id(8)})."
            )
        if p["HITTypeId"] not in self.hit_types:
            raise MTurkFault(f"HITType {p['HITTypeId']} does not exist.")
        if "Question" not in p and "HITLayoutId" not in p:
            raise MTurkFault("Either Question or HITLayoutId must be provided.")
        if not 30 <= p["LifetimeInSeconds"] <= 31_536_000:
            raise MTurkFault("LifetimeInSeconds must be between 30 and 31536000.")
        if not 1 <= p.get("MaxAssignments", 1) <= 1_000_000:
            raise MTurkFault("MaxAssignments must be positive.")
        if "Question" in p:
            self._check_external_question(p["Question"])
        now = self.now()
        hit_id = _new_id()
        self.hits[hit_id] = {
            "HITId": hit_id,
            "HITTypeId": p["HITTypeId"],
            "MaxAssignments": p.get("MaxAssignments", 1),
            "Question": p.get("Question", ""),
            "RequesterAnnotation": p.get("RequesterAnnotation"),
            "CreationTime": now,
            "Expiration": now + p["LifetimeInSeconds"],
            "disposed": False,
        }
        if token:
            self.tokens[token] = hit_id
        return {"HIT": self._hit_view(self.hits[hit_id])}

    def _check_external_question(self, xml: str) -> None:
        try:
            root = ET.fromstring(xml)
        except ET.ParseError as exc:
            raise MTurkFault(
                f"The Question is not well-formed XML: {exc}", "ParameterValidationError"
            ) from exc
        if root.tag != f"{{{EXTERNAL_NS}}}ExternalQuestion":
            raise MTurkFault("The fake only serves ExternalQuestion HITs.", "ParameterValidationError")
        url_el = root.find(f"{{{EXTERNAL_NS}}}ExternalURL")
        height = root.find(f"{{{EXTERNAL_NS}}}FrameHeight")
        if url_el is None or height is None or not (height.text or "").strip().isdigit():
            raise MTurkFault("ExternalQuestion needs ExternalURL and a numeric FrameHeight.")
        url = urllib.parse.urlparse((url_el.text or "").strip())
        local = url.scheme == "http" and url.hostname in ("127.0.0.1", "localhost")
        if url.scheme != "https" and not local:
            raise MTurkFault("ExternalURL must use HTTPS.", "ParameterValidationError")

    def op_GetHIT(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"HIT": self._hit_view(self._hit(p["HITId"]))}

    def op_ListHITs(self, p: dict[str, Any]) -> dict[str, Any]:
        hits = [self._hit_view(h) for h in self.hits.values() if not h["disposed"]]
        page, nxt = self._page(hits, p)
        return {"NextToken": nxt, "NumResults": len(page), "HITs": page}

    def op_ListAssignmentsForHIT(self, p: dict[str, Any]) -> dict[str, Any]:
        self._hit(p["HITId"])
        wanted = p.get("AssignmentStatuses") or ["Submitted", "Approved", "Rejected"]
        rows = [
            self._assignment_view(a)
            for a in self.assignments.values()
            if a.hit_id == p["HITId"] and a.status in wanted
        ]
        page, nxt = self._page(rows, p)
        return {"NextToken": nxt, "NumResults": len(page), "Assignments": page}

    def op_GetAssignment(self, p: dict[str, Any]) -> dict[str, Any]:
        a = self._visible(p["AssignmentId"])
        return {"Assignment": self._assignment_view(a), "HIT": self._hit_view(self.hits[a.hit_id])}

    def op_ApproveAssignment(self, p: dict[str, Any]) -> dict[str, Any]:
        a = self._visible(p["AssignmentId"])
        if a.status == "Rejected" and p.get("OverrideRejection"):
            pass
        elif a.status != "Submitted":
            raise MTurkFault(
                f"This operation can be called with a status of: Submitted (assignment is {a.status})."
            )
        self._pay_reward(a)
        a.status = "Approved"
        a.approval_time = self.now()
        a.feedback = p.get("RequesterFeedback")
        return {}

    def op_RejectAssignment(self, p: dict[str, Any]) -> dict[str, Any]:
        a = self._visible(p["AssignmentId"])
        if not p["RequesterFeedback"].strip():
            raise MTurkFault("RequesterFeedback is required to reject an assignment.")
        if a.status != "Submitted":
            raise MTurkFault(
                f"This operation can be called with a status of: Submitted (assignment is {a.status})."
            )
        a.status = "Rejected"
        a.rejection_time = self.now()
        a.feedback = p["RequesterFeedback"]
        return {}

    def op_SendBonus(self, p: dict[str, Any]) -> dict[str, Any]:
        token = p.get("UniqueRequestToken")
        if token is None and self.require_bonus_token:
            raise MTurkFault("fake: our code must always send a UniqueRequestToken with SendBonus.")
        if token and token in self.tokens:
            raise MTurkFault(
                f"The bonus for this UniqueRequestToken was already granted (RequestId {_new_id(8)})."
            )
        a = self._visible(p["AssignmentId"])
        if a.worker_id != p["WorkerId"]:
            raise MTurkFault("The WorkerId does not match the assignment.")
        cents = _cents(p["BonusAmount"])
        if cents <= 0:
            raise MTurkFault("The bonus amount must be positive.")
        if not p["Reason"].strip():
            raise MTurkFault("A reason is required for a bonus.")
        cost = cents + _fee(cents)
        if cost > self.balance:
            raise MTurkFault("Your account does not have enough funds.")
        self.balance -= cost
        self.bonuses.append(
            {
                "WorkerId": p["WorkerId"],
                "BonusAmount": _dollars(cents),
                "AssignmentId": a.id,
                "Reason": p["Reason"],
                "GrantTime": datetime.fromtimestamp(self.now(), UTC),
                "token": token,
            }
        )
        if token:
            self.tokens[token] = a.id
        return {}

    def op_ListBonusPayments(self, p: dict[str, Any]) -> dict[str, Any]:
        if bool(p.get("HITId")) == bool(p.get("AssignmentId")):
            raise MTurkFault("Specify exactly one of HITId or AssignmentId.")
        rows = [
            {k: v for k, v in b.items() if k != "token"}
            for b in self.bonuses
            if b["AssignmentId"] == p.get("AssignmentId")
            or (p.get("HITId") and self.assignments[b["AssignmentId"]].hit_id == p["HITId"])
        ]
        page, nxt = self._page(rows, p)
        return {"NumResults": len(page), "NextToken": nxt, "BonusPayments": page}

    def op_UpdateExpirationForHIT(self, p: dict[str, Any]) -> dict[str, Any]:
        hit = self._hit(p["HITId"])
        at = p["ExpireAt"]
        at = float(at) if not isinstance(at, str) else datetime.fromisoformat(at).timestamp()
        hit["Expiration"] = max(at, hit["CreationTime"]) if at > self.now() else self.now()
        return {}

    def op_DeleteHIT(self, p: dict[str, Any]) -> dict[str, Any]:
        hit = self._hit(p["HITId"])
        status = self._hit_status(hit)
        if status != "Reviewable":
            raise MTurkFault(
                f"This HIT is currently in the state '{status}'. It must be Reviewable to delete."
            )
        _pending, _available, submitted, _decided = self._counts(hit)
        if submitted:
            raise MTurkFault("This HIT has submitted assignments that are not yet approved or rejected.")
        hit["disposed"] = True
        return {}

    def op_CreateQualificationType(self, p: dict[str, Any]) -> dict[str, Any]:
        if any(q["Name"] == p["Name"] and not q.get("deleted") for q in self.qual_types.values()):
            raise MTurkFault(f"You have already created a QualificationType with this name: {p['Name']}")
        qid = _new_id()
        self.qual_types[qid] = {
            "QualificationTypeId": qid,
            "CreationTime": datetime.fromtimestamp(self.now(), UTC),
            "Name": p["Name"],
            "Description": p["Description"],
            "Keywords": p.get("Keywords"),
            "QualificationTypeStatus": p["QualificationTypeStatus"],
            "IsRequestable": bool(p.get("Test") or p.get("AutoGranted")),
            "AutoGranted": p.get("AutoGranted", False),
        }
        return {"QualificationType": self._qual_view(qid)}

    def _qual_view(self, qid: str) -> dict[str, Any]:
        return {k: v for k, v in self.qual_types[qid].items() if k != "deleted"}

    def op_GetQualificationType(self, p: dict[str, Any]) -> dict[str, Any]:
        self._qual(p["QualificationTypeId"])
        return {"QualificationType": self._qual_view(p["QualificationTypeId"])}

    def op_ListQualificationTypes(self, p: dict[str, Any]) -> dict[str, Any]:
        query = (p.get("Query") or "").lower()
        rows = [
            self._qual_view(qid)
            for qid, q in self.qual_types.items()
            if not q.get("deleted") and query in (q["Name"] + " " + q["Description"]).lower()
        ]
        page, nxt = self._page(rows, p)
        return {"NumResults": len(page), "NextToken": nxt, "QualificationTypes": page}

    def op_AssociateQualificationWithWorker(self, p: dict[str, Any]) -> dict[str, Any]:
        self._qual(p["QualificationTypeId"])
        self.worker_quals[(p["QualificationTypeId"], p["WorkerId"])] = p.get("IntegerValue", 1)
        return {}

    def op_DisassociateQualificationFromWorker(self, p: dict[str, Any]) -> dict[str, Any]:
        self._qual(p["QualificationTypeId"])
        if self.worker_quals.pop((p["QualificationTypeId"], p["WorkerId"]), None) is None:
            raise MTurkFault("The worker does not have this qualification.")
        return {}

    def op_ListWorkersWithQualificationType(self, p: dict[str, Any]) -> dict[str, Any]:
        qid = p["QualificationTypeId"]
        self._qual(qid)
        rows = [
            {"QualificationTypeId": qid, "WorkerId": worker, "IntegerValue": value, "Status": "Granted"}
            for (q, worker), value in self.worker_quals.items()
            if q == qid
        ]
        page, nxt = self._page(rows, p)
        return {"NextToken": nxt, "NumResults": len(page), "Qualifications": page}

    def op_CreateWorkerBlock(self, p: dict[str, Any]) -> dict[str, Any]:
        if not p["Reason"].strip():
            raise MTurkFault("A reason is required to block a worker.")
        self.blocks[p["WorkerId"]] = p["Reason"]
        return {}

    def op_DeleteWorkerBlock(self, p: dict[str, Any]) -> dict[str, Any]:
        self.blocks.pop(p["WorkerId"], None)
        return {}

    def op_ListWorkerBlocks(self, p: dict[str, Any]) -> dict[str, Any]:
        rows = [{"WorkerId": w, "Reason": r} for w, r in self.blocks.items()]
        page, nxt = self._page(rows, p)
        return {"NextToken": nxt, "NumResults": len(page), "WorkerBlocks": page}

    # -------------------------------------------------------------- HTTP

    def handle_api(self, target: str, body: bytes, auth: str) -> tuple[int, dict[str, Any]]:
        if not target.startswith(TARGET_PREFIX):
            return 400, {"__type": "UnknownOperationException", "message": f"bad target {target!r}"}
        name = target[len(TARGET_PREFIX) :]
        if name not in self.model.operation_names:
            return 400, {"__type": "UnknownOperationException", "message": f"no operation {name}"}
        if "Credential=" not in auth or "/mturk-requester/aws4_request" not in auth:
            return 403, {"__type": "UnrecognizedClientException", "message": "missing SigV4 credentials"}
        try:
            params = json.loads(body or b"{}")
        except json.JSONDecodeError:
            return 400, {"__type": "SerializationException", "Message": "body is not JSON"}
        op: OperationModel = self.model.operation_model(name)
        problems = validate(op.input_shape, params) if op.input_shape else []
        if problems:
            return 400, {"__type": "ValidationException", "Message": "; ".join(problems)}
        handler = getattr(self, f"op_{name}", None)
        if handler is None:
            return 501, {"__type": "ServiceFault", "Message": f"fake MTurk does not implement {name}"}
        with self.lock:
            self._tick()
            self.calls.append((name, params))
            try:
                result = handler(params)
            except MTurkFault as exc:
                return exc.status, {"__type": exc.code, "Message": exc.message, "TurkErrorCode": exc.code}
            body_out = shape_output(op.output_shape, result)
            hold = self._hold_for(name)
        if hold is not None:  # applied, but the caller never hears back until released
            hold.arrived.set()
            hold.release.wait(120)
        return 200, body_out

    def _hold_for(self, name: str) -> Hold | None:
        for hold in self.holds:
            if hold.operation == name and not hold.arrived.is_set():
                hold.seen += 1
                if hold.seen == hold.nth:
                    return hold
        return None

    def handle_submit(self, fields: dict[str, str]) -> tuple[int, str]:
        """The browser's form post to ``turkSubmitTo/mturk/externalSubmit``."""
        self.external_submits.append(fields)
        assignment_id = fields.get("assignmentId", "")
        if not assignment_id or assignment_id == "ASSIGNMENT_ID_NOT_AVAILABLE":
            return 400, "Missing assignmentId: a preview cannot be submitted."
        answers = {k: v for k, v in fields.items() if k != "assignmentId"}
        try:
            self.submit(assignment_id, answers)
        except MTurkFault as exc:
            return 400, exc.message
        return 200, "Your HIT has been submitted."

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def _reply(self, status: int, body: bytes, ctype: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    self.send_header("x-amzn-RequestId", _new_id(16))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the caller is gone (a test killed it)

            def _form(self, raw: str) -> dict[str, str]:
                return {k: v[-1] for k, v in urllib.parse.parse_qs(raw, keep_blank_values=True).items()}

            def do_GET(self) -> None:
                path, _, query = self.path.partition("?")
                if path == "/mturk/externalSubmit":
                    status, text = fake.handle_submit(self._form(query))
                    self._reply(status, f"<html><body><p>{text}</p></body></html>".encode(), "text/html")
                else:
                    self._reply(404, b"not found", "text/plain")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if self.path.split("?")[0] == "/mturk/externalSubmit":
                    status, text = fake.handle_submit(self._form(body.decode()))
                    self._reply(status, f"<html><body><p>{text}</p></body></html>".encode(), "text/html")
                    return
                status, payload = fake.handle_api(
                    self.headers.get("X-Amz-Target", ""), body, self.headers.get("Authorization", "")
                )
                self._reply(status, json.dumps(payload).encode(), "application/x-amz-json-1.1")

        return Handler


# ---------------------------------------------------------------------- pytest helpers

FAKE_AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "AKIAFAKEMTURKTESTS00",
    "AWS_SECRET_ACCESS_KEY": "fake-secret-for-the-fake-endpoint",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
}


def running_fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMTurk]:
    """For a fixture: a running fake MTurk, and AWS credentials in the environment that only it accepts."""
    for key, value in FAKE_AWS_ENV.items():
        monkeypatch.setenv(key, value)
    for key in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        monkeypatch.delenv(key, raising=False)
    fake = FakeMTurk().start()
    yield fake
    fake.stop()
