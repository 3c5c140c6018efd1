"""Amazon Mechanical Turk (live or sandbox) through boto3.

HITs carry an ExternalQuestion that frames our worker page; the page submits back to
MTurk itself. Exclusion is done with this study's own qualification types (blocked,
reached the per-worker limit) rather than platform blocks, which count against a
worker's standing; ``block(..., platform_block=True)`` adds a real CreateWorkerBlock.
Every paying call is made safe to repeat: see ``send_bonus``, ``approve`` and ``reject``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from server.providers.base import (
    ALREADY_APPROVED,
    HitInfo,
    LaunchSpec,
    PlatformAssignment,
    ProviderError,
    cents_to_dollars,
    dollars_to_cents,
)
from server.providers.policy import MTURK_PRICING, Pricing
from server.settings import Settings

LIVE_ENDPOINT = "https://mturk-requester.us-east-1.amazonaws.com"
SANDBOX_ENDPOINT = "https://mturk-requester-sandbox.us-east-1.amazonaws.com"
EXTERNAL_NS = (
    "http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd"
)
# MTurk's system qualification types (the same ids in live and sandbox)
PERCENT_APPROVED = "000000000000000000L0"
NUMBER_APPROVED = "00000000000000000040"
LOCALE = "00000000000000000071"
PAST = datetime(2015, 1, 1, tzinfo=UTC)  # UpdateExpirationForHIT to a past time expires at once


def external_question(url: str, frame_height: int = 0) -> str:
    return (
        f'<ExternalQuestion xmlns="{EXTERNAL_NS}">'
        f"<ExternalURL>{escape(url)}</ExternalURL><FrameHeight>{frame_height}</FrameHeight>"
        "</ExternalQuestion>"
    )


def parse_answer(xml: str | None) -> dict[str, str]:
    """The fields of a QuestionFormAnswers document (what our page's form submitted)."""
    if not xml:
        return {}
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return {}
    out = {}
    for answer in root:
        if not answer.tag.endswith("Answer"):
            continue
        key = value = None
        for child in answer:
            if child.tag.endswith("QuestionIdentifier"):
                key = (child.text or "").strip()
            elif child.tag.endswith("FreeText"):
                value = child.text or ""
        if key:
            out[key] = value or ""
    return out


def _status(value: str) -> str:
    return value.lower()


class MTurkProvider:
    pricing: Pricing = MTURK_PRICING
    pays_here = True

    def __init__(self, settings: Settings, sandbox: bool, client: Any = None) -> None:
        self.name = "mturk-sandbox" if sandbox else "mturk"
        self.settings = settings
        self.sandbox = sandbox
        self.endpoint = settings.mturk_endpoint_url or (SANDBOX_ENDPOINT if sandbox else LIVE_ENDPOINT)
        self.client = client or boto3.client(
            "mturk",
            region_name=settings.mturk_region,
            endpoint_url=self.endpoint,
            config=Config(
                retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=10, read_timeout=60
            ),
        )
        self._quals: dict[str, str] = {}

    # -------------------------------------------------------------- plumbing

    def _call(self, operation: str, **params: Any) -> dict[str, Any]:
        try:
            return getattr(self.client, operation)(**params)
        except ClientError as exc:
            error = exc.response.get("Error", {})
            raise ProviderError(f"{operation}: {error.get('Message') or exc}", error.get("Code")) from exc
        except BotoCoreError as exc:
            raise ProviderError(f"{operation}: {exc}") from exc

    def _pages(self, operation: str, key: str, **params: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        token = None
        while True:
            page = self._call(operation, **params, **({"NextToken": token} if token else {}), MaxResults=100)
            items += page.get(key, [])
            token = page.get("NextToken")
            if not token:
                return items

    def qualification(self, purpose: str) -> str:
        """This study's qualification type for ``purpose`` (blocked, consented, limit), made once."""
        descriptions = {
            "blocked": "Workers who may not take part in this art-conversation study again.",
            "consented": "Workers who gave consent in this art-conversation study.",
            "limit": "Workers who already took part as often as this study allows.",
        }
        return self.qualification_type(purpose, f"avd {self.settings.study} {purpose}", descriptions[purpose])

    def qualification_type(self, key: str, name: str, description: str) -> str:
        """The id of our qualification type called ``name``: found again on the account, or made once."""
        if key in self._quals:
            return self._quals[key]
        found = [
            q
            for q in self._pages(
                "list_qualification_types",
                "QualificationTypes",
                Query=name,
                MustBeRequestable=False,
                MustBeOwnedByCaller=True,
            )
            if q["Name"] == name
        ]
        if found:
            qid = found[0]["QualificationTypeId"]
        else:
            qid = self._call(
                "create_qualification_type",
                Name=name,
                Description=description,
                Keywords="avd",
                QualificationTypeStatus="Active",
            )["QualificationType"]["QualificationTypeId"]
        self._quals[key] = qid
        return qid

    def requirements(self) -> list[dict[str, Any]]:
        s = self.settings
        reqs: list[dict[str, Any]] = [
            {
                "QualificationTypeId": self.qualification("blocked"),
                "Comparator": "DoesNotExist",
                "ActionsGuarded": "DiscoverPreviewAndAccept",
            }
        ]
        if s.mturk_max_dialogs_per_worker:
            reqs.append(
                {
                    "QualificationTypeId": self.qualification("limit"),
                    "Comparator": "DoesNotExist",
                    "ActionsGuarded": "DiscoverPreviewAndAccept",
                }
            )
        countries = [c.strip().upper() for c in s.mturk_locales.split(",") if c.strip()]
        if countries:
            reqs.append(
                {
                    "QualificationTypeId": LOCALE,
                    "Comparator": "In",
                    "LocaleValues": [{"Country": c} for c in countries],
                    "ActionsGuarded": "PreviewAndAccept",
                }
            )
        if s.mturk_min_approval_rate is not None:
            reqs.append(
                {
                    "QualificationTypeId": PERCENT_APPROVED,
                    "Comparator": "GreaterThanOrEqualTo",
                    "IntegerValues": [s.mturk_min_approval_rate],
                    "ActionsGuarded": "Accept",
                }
            )
        if s.mturk_min_approved_hits is not None:
            reqs.append(
                {
                    "QualificationTypeId": NUMBER_APPROVED,
                    "Comparator": "GreaterThanOrEqualTo",
                    "IntegerValues": [s.mturk_min_approved_hits],
                    "ActionsGuarded": "Accept",
                }
            )
        return reqs

    # -------------------------------------------------------------- HITs

    def create_hit_type(self, spec: LaunchSpec) -> str:
        return self._call(
            "create_hit_type",
            AutoApprovalDelayInSeconds=spec.auto_approve_seconds,
            AssignmentDurationInSeconds=spec.assignment_seconds,
            Reward=cents_to_dollars(spec.reward_cents),
            Title=spec.title,
            Keywords=spec.keywords,
            Description=spec.description,
            QualificationRequirements=self.requirements(),
        )["HITTypeId"]

    def create_hit(self, spec: LaunchSpec, type_id: str, index: int, size: int) -> HitInfo:
        """One HIT of the launch; its token makes a retried call return nothing new."""
        annotation = f"avd:{spec.study}:{spec.launch_id}:{index}"
        try:
            hit = self._call(
                "create_hit_with_hit_type",
                HITTypeId=type_id,
                MaxAssignments=size,
                LifetimeInSeconds=spec.lifetime_seconds,
                Question=external_question(spec.url, self.settings.mturk_frame_height),
                RequesterAnnotation=annotation,
                UniqueRequestToken=f"{spec.launch_id}-{index}"[:64],
            )["HIT"]
        except ProviderError:
            found = [
                h for h in self._pages("list_hits", "HITs") if h.get("RequesterAnnotation") == annotation
            ]
            if not found:
                raise
            hit = found[0]
        return self._hit_info(hit)

    def create_hits(self, spec: LaunchSpec) -> tuple[str | None, list[HitInfo]]:
        type_id = self.create_hit_type(spec)
        hits, left, index = [], spec.assignments, 0
        while left > 0:
            size = min(spec.per_hit, left)
            hits.append(self.create_hit(spec, type_id, index, size))
            left -= size
            index += 1
        return type_id, hits

    @staticmethod
    def _hit_info(hit: dict[str, Any]) -> HitInfo:
        return HitInfo(
            id=hit["HITId"],
            max_assignments=hit.get("MaxAssignments", 1),
            status=hit.get("HITStatus", "Assignable"),
            expires_at=hit.get("Expiration"),
            pending=hit.get("NumberOfAssignmentsPending", 0),
            available=hit.get("NumberOfAssignmentsAvailable", 0),
            completed=hit.get("NumberOfAssignmentsCompleted", 0),
            type_id=hit.get("HITTypeId"),
        )

    def get_hit(self, hit_id: str) -> HitInfo | None:
        try:
            return self._hit_info(self._call("get_hit", HITId=hit_id)["HIT"])
        except ProviderError:
            return None

    def expire_hit(self, hit_id: str) -> None:
        self._call("update_expiration_for_hit", HITId=hit_id, ExpireAt=PAST)

    def delete_hit(self, hit_id: str) -> bool:
        """Delete a HIT MTurk considers finished; False when it is not (yet) deletable."""
        try:
            self._call("delete_hit", HITId=hit_id)
        except ProviderError:
            return False
        return True

    # -------------------------------------------------------------- assignments

    @staticmethod
    def _assignment(a: dict[str, Any]) -> PlatformAssignment:
        return PlatformAssignment(
            id=a["AssignmentId"],
            hit_id=a["HITId"],
            worker=a["WorkerId"],
            status=_status(a["AssignmentStatus"]),
            accepted_at=a.get("AcceptTime"),
            submitted_at=a.get("SubmitTime"),
            deadline=a.get("Deadline"),
            answer=parse_answer(a.get("Answer")),
        )

    def list_assignments(self, hit_id: str) -> list[PlatformAssignment]:
        rows = self._pages(
            "list_assignments_for_hit",
            "Assignments",
            HITId=hit_id,
            AssignmentStatuses=["Submitted", "Approved", "Rejected"],
        )
        return [self._assignment(a) for a in rows]

    def get_assignment(self, assignment_id: str) -> PlatformAssignment | None:
        """None while MTurk shows nothing: accepted but not submitted, returned or abandoned."""
        try:
            return self._assignment(self._call("get_assignment", AssignmentId=assignment_id)["Assignment"])
        except ProviderError:
            return None

    # -------------------------------------------------------------- money

    def bonus_paid(self, assignment_id: str) -> int:
        rows = self._pages("list_bonus_payments", "BonusPayments", AssignmentId=assignment_id)
        return sum(dollars_to_cents(b["BonusAmount"]) for b in rows)

    def send_bonus(self, worker: str, assignment_id: str, cents: int, reason: str, token: str) -> None:
        """Pay a bonus once: a refusal is fine when the bonus turns out to be there already."""
        try:
            self._call(
                "send_bonus",
                WorkerId=worker,
                BonusAmount=cents_to_dollars(cents),
                AssignmentId=assignment_id,
                Reason=reason,
                UniqueRequestToken=token,
            )
        except ProviderError:
            if self.bonus_paid(assignment_id) >= cents:
                return
            raise

    def approve(self, assignment_id: str, feedback: str | None = None) -> None:
        try:
            self._call(
                "approve_assignment",
                AssignmentId=assignment_id,
                **({"RequesterFeedback": feedback} if feedback else {}),
            )
        except ProviderError:
            current = self.get_assignment(assignment_id)
            if current is not None and current.status == "approved":
                return
            raise

    def reject(self, assignment_id: str, feedback: str) -> None:
        try:
            self._call("reject_assignment", AssignmentId=assignment_id, RequesterFeedback=feedback)
        except ProviderError as exc:
            current = self.get_assignment(assignment_id)
            if current is not None and current.status == "rejected":
                return
            if current is not None and current.status == "approved":
                raise ProviderError(f"{assignment_id} was already approved", ALREADY_APPROVED) from exc
            raise

    def balance_cents(self) -> int | None:
        return dollars_to_cents(self._call("get_account_balance")["AvailableBalance"])

    # -------------------------------------------------------------- workers

    def _grant(self, purpose: str, worker: str) -> None:
        self._call(
            "associate_qualification_with_worker",
            QualificationTypeId=self.qualification(purpose),
            WorkerId=worker,
            IntegerValue=1,
            SendNotification=False,
        )

    def block(self, worker: str, reason: str, platform_block: bool = False) -> None:
        self._grant("blocked", worker)
        if platform_block:
            self._call("create_worker_block", WorkerId=worker, Reason=reason)

    def mark_limit_reached(self, worker: str) -> None:
        self._grant("limit", worker)

    def mark_consented(self, worker: str) -> None:
        self._grant("consented", worker)
