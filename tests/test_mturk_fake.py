"""The fake MTurk endpoint keeps to botocore's model and to MTurk's documented rules.

These tests drive it with plain boto3 (no code of ours), so a test elsewhere that passes
against the fake passes for the right reasons.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import boto3
import httpx
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from tests.fake_mturk import (
    LOCALE,
    PERCENT_APPROVED,
    FakeMTurk,
    MTurkFault,
    running_fake,
    shape_output,
)

QUESTION = (
    '<ExternalQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/'
    '2006-07-14/ExternalQuestion.xsd"><ExternalURL>https://example.org/task</ExternalURL>'
    "<FrameHeight>0</FrameHeight></ExternalQuestion>"
)


@pytest.fixture
def fake(monkeypatch):
    yield from running_fake(monkeypatch)


def client(fake: FakeMTurk, validate: bool = True):
    return boto3.client(
        "mturk",
        region_name="us-east-1",
        endpoint_url=fake.url,
        config=Config(parameter_validation=validate, retries={"max_attempts": 1}),
    )


def make_hit(mturk, max_assignments: int = 2, requirements: list | None = None, lifetime: int = 3600) -> str:
    type_id = mturk.create_hit_type(
        Title="t",
        Description="d",
        Reward="0.50",
        AssignmentDurationInSeconds=600,
        AutoApprovalDelayInSeconds=3600,
        QualificationRequirements=requirements or [],
    )["HITTypeId"]
    return mturk.create_hit_with_hit_type(
        HITTypeId=type_id, MaxAssignments=max_assignments, LifetimeInSeconds=lifetime, Question=QUESTION
    )["HIT"]["HITId"]


def code(exc: pytest.ExceptionInfo[ClientError]) -> str:
    return exc.value.response["Error"]["Code"]


def test_requests_are_checked_against_the_service_model(fake):
    loose = client(fake, validate=False)  # let bad input reach the server
    with pytest.raises(ClientError) as missing:
        loose.get_hit()
    assert code(missing) == "ValidationException" and "HITId" in str(missing.value)
    with pytest.raises(ClientError) as pattern:
        loose.get_hit(HITId="lower-case-is-not-an-id")
    assert code(pattern) == "ValidationException"
    with pytest.raises(ClientError) as typed:
        loose.create_hit_type(Title="t", Description="d", Reward="0.50", AssignmentDurationInSeconds="600")
    assert code(typed) == "ValidationException"
    with pytest.raises(ClientError) as token:
        loose.send_bonus(
            WorkerId="AWORKER1", BonusAmount="1", AssignmentId="X", Reason="r", UniqueRequestToken="t" * 65
        )
    assert code(token) == "ValidationException" and "longer than 64" in str(token.value)


def test_raw_requests_need_a_known_operation_and_sigv4():
    fake = FakeMTurk().start()
    try:
        headers = {"Content-Type": "application/x-amz-json-1.1"}
        r = httpx.post(fake.url, headers=headers | {"X-Amz-Target": "MTurkRequesterServiceV20170117.Nope"})
        assert r.status_code == 400 and r.json()["__type"] == "UnknownOperationException"
        r = httpx.post(
            fake.url,
            headers=headers | {"X-Amz-Target": "MTurkRequesterServiceV20170117.GetAccountBalance"},
            content=b"{}",
        )
        assert r.status_code == 403  # unsigned
        sigv4 = (
            "AWS4-HMAC-SHA256 Credential=AKIA/20240101/us-east-1/mturk-requester/aws4_request, Signature=x"
        )
        r = httpx.post(
            fake.url,
            headers=headers
            | {"X-Amz-Target": "MTurkRequesterServiceV20170117.GetAccountBalance", "Authorization": sigv4},
            content=json.dumps({"Surprise": 1}),
        )
        assert r.status_code == 400 and "unknown member Surprise" in r.json()["Message"]
    finally:
        fake.stop()


def test_responses_carry_only_members_of_the_output_shape():
    fake = FakeMTurk()
    shape = fake.model.operation_model("GetAccountBalance").output_shape
    assert shape_output(shape, {"AvailableBalance": "1.00"}) == {"AvailableBalance": "1.00"}
    with pytest.raises(AssertionError):
        shape_output(shape, {"AvailableBalance": "1.00", "Secret": "x"})
    hit_shape = fake.model.operation_model("GetHIT").output_shape
    out = shape_output(hit_shape, {"HIT": {"HITId": "A1", "Expiration": datetime(2030, 1, 1, tzinfo=UTC)}})
    assert isinstance(out["HIT"]["Expiration"], float)  # JSON protocol: epoch seconds
    fake.server.server_close()


def test_worker_lifecycle_and_payment_rules(fake):
    mturk = client(fake)
    hit_id = make_hit(mturk)
    worker = fake.add_worker("AWORKERONE")
    assignment = fake.accept(hit_id, worker)
    hit = mturk.get_hit(HITId=hit_id)["HIT"]
    assert (hit["NumberOfAssignmentsPending"], hit["NumberOfAssignmentsAvailable"]) == (1, 1)
    with pytest.raises(ClientError):  # not visible to the requester before submission
        mturk.get_assignment(AssignmentId=assignment)
    with pytest.raises(ClientError):
        mturk.approve_assignment(AssignmentId=assignment)

    fake.submit(assignment, {"completion_code": "ABC123"})
    got = mturk.get_assignment(AssignmentId=assignment)["Assignment"]
    assert got["AssignmentStatus"] == "Submitted" and "ABC123" in got["Answer"]
    listed = mturk.list_assignments_for_hit(HITId=hit_id, AssignmentStatuses=["Submitted"])
    assert [a["AssignmentId"] for a in listed["Assignments"]] == [assignment]

    before = fake.balance
    with pytest.raises(ClientError):  # our code must always send a token
        mturk.send_bonus(WorkerId=worker, BonusAmount="1.00", AssignmentId=assignment, Reason="thanks")
    with pytest.raises(ClientError):
        mturk.send_bonus(
            WorkerId="AOTHERWORKER",
            BonusAmount="1.00",
            AssignmentId=assignment,
            Reason="x",
            UniqueRequestToken="t1",
        )
    mturk.send_bonus(
        WorkerId=worker, BonusAmount="1.00", AssignmentId=assignment, Reason="thanks", UniqueRequestToken="t1"
    )
    with pytest.raises(ClientError) as repeat:  # the same token never pays twice
        mturk.send_bonus(
            WorkerId=worker,
            BonusAmount="1.00",
            AssignmentId=assignment,
            Reason="thanks",
            UniqueRequestToken="t1",
        )
    assert "already" in str(repeat.value)
    bonuses = mturk.list_bonus_payments(AssignmentId=assignment)["BonusPayments"]
    assert [b["BonusAmount"] for b in bonuses] == ["1.00"]
    assert fake.balance == before - 120  # bonus plus the 20% fee

    with pytest.raises(ClientError):
        mturk.reject_assignment(AssignmentId=assignment, RequesterFeedback="   ")  # feedback is required
    mturk.approve_assignment(AssignmentId=assignment)
    assert fake.balance == before - 120 - 60
    with pytest.raises(ClientError):
        mturk.approve_assignment(AssignmentId=assignment)  # only Submitted can be approved
    with pytest.raises(ClientError):
        mturk.reject_assignment(AssignmentId=assignment, RequesterFeedback="late")


def test_return_abandon_auto_approval_expire_and_delete(fake):
    mturk = client(fake)
    hit_id = make_hit(mturk, max_assignments=2)
    a1 = fake.accept(hit_id, fake.add_worker("AWORKERA"))
    a2 = fake.accept(hit_id, fake.add_worker("AWORKERB"))
    assert mturk.get_hit(HITId=hit_id)["HIT"]["HITStatus"] == "Unassignable"
    fake.return_assignment(a1)
    hit = mturk.get_hit(HITId=hit_id)["HIT"]
    assert (hit["HITStatus"], hit["NumberOfAssignmentsAvailable"]) == ("Assignable", 1)
    with pytest.raises(ClientError):
        mturk.delete_hit(HITId=hit_id)  # still assignable
    fake.abandon(a2)  # its deadline passes
    assert mturk.get_hit(HITId=hit_id)["HIT"]["NumberOfAssignmentsPending"] == 0

    a3 = fake.accept(hit_id, fake.add_worker("AWORKERC"))
    fake.submit(a3, {"completion_code": "X"})
    mturk.update_expiration_for_hit(HITId=hit_id, ExpireAt=datetime(2015, 1, 1, tzinfo=UTC))
    assert mturk.get_hit(HITId=hit_id)["HIT"]["HITStatus"] == "Reviewable"
    with pytest.raises(MTurkFault):
        fake.accept(hit_id, fake.add_worker("AWORKERD"))  # expired
    with pytest.raises(ClientError):
        mturk.delete_hit(HITId=hit_id)  # a submission is still undecided
    fake.advance(3601)  # AutoApprovalDelayInSeconds passes
    assert mturk.get_assignment(AssignmentId=a3)["Assignment"]["AssignmentStatus"] == "Approved"
    mturk.delete_hit(HITId=hit_id)
    with pytest.raises(ClientError):
        mturk.get_hit(HITId=hit_id)


def test_qualifications_and_blocks_decide_who_may_accept(fake):
    mturk = client(fake)
    blocked_q = mturk.create_qualification_type(
        Name="blocked", Description="kept out", QualificationTypeStatus="Active"
    )["QualificationType"]["QualificationTypeId"]
    with pytest.raises(ClientError):  # names are unique per requester
        mturk.create_qualification_type(Name="blocked", Description="again", QualificationTypeStatus="Active")
    hit_id = make_hit(
        mturk,
        max_assignments=5,
        requirements=[
            {"QualificationTypeId": blocked_q, "Comparator": "DoesNotExist"},
            {
                "QualificationTypeId": LOCALE,
                "Comparator": "In",
                "LocaleValues": [{"Country": "US"}, {"Country": "GB"}],
            },
            {
                "QualificationTypeId": PERCENT_APPROVED,
                "Comparator": "GreaterThanOrEqualTo",
                "IntegerValues": [95],
            },
        ],
    )
    ok = fake.add_worker("AGOODWORKER", country="GB")
    far = fake.add_worker("AFARWORKER", country="FR")
    sloppy = fake.add_worker("ASLOPPYWORKER", approval_rate=80)
    kept_out = fake.add_worker("AKEPTOUT")
    mturk.associate_qualification_with_worker(
        QualificationTypeId=blocked_q, WorkerId=kept_out, IntegerValue=1
    )
    hard = fake.add_worker("AHARDBLOCK")
    mturk.create_worker_block(WorkerId=hard, Reason="spam")
    assert fake.accept(hit_id, ok)
    for worker in (far, sloppy, kept_out, hard):
        with pytest.raises(MTurkFault):
            fake.accept(hit_id, worker)
    with pytest.raises(MTurkFault):
        fake.accept(hit_id, ok)  # one assignment per worker and HIT


def test_create_hit_token_and_https(fake):
    mturk = client(fake)
    type_id = mturk.create_hit_type(
        Title="t", Description="d", Reward="0.10", AssignmentDurationInSeconds=60
    )["HITTypeId"]
    again = mturk.create_hit_type(Title="t", Description="d", Reward="0.10", AssignmentDurationInSeconds=60)
    assert again["HITTypeId"] == type_id  # same properties, same HIT type
    args = {
        "HITTypeId": type_id,
        "LifetimeInSeconds": 600,
        "Question": QUESTION,
        "UniqueRequestToken": "L1-0",
    }
    mturk.create_hit_with_hit_type(**args)
    with pytest.raises(ClientError):
        mturk.create_hit_with_hit_type(**args)
    assert len(fake.hits) == 1
    with pytest.raises(ClientError):
        mturk.create_hit_with_hit_type(
            HITTypeId=type_id,
            LifetimeInSeconds=600,
            Question=QUESTION.replace("https://example.org", "http://x.org"),
        )
