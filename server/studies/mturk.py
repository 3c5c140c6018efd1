"""MTurk HITs of one human study: the dialogs' requirements, plus "has not rated this study yet".

A rater takes part in a study once: the assignment engine hands one rater at most
``items_per_rater`` items over all their assignments, and a second assignment would find
nothing left. So raters who submitted get this study's own *rated* qualification
(granted by reconciliation), and the study's HITs require it *not* to exist, as they do
for the *blocked* one. The dialogs' per-worker *limit* counts dialogs and does not apply.
"""

from __future__ import annotations

from typing import Any

from server.providers.mturk import MTurkProvider
from server.settings import Settings


class StudyMTurkProvider(MTurkProvider):
    """The MTurk provider with the requirements of study ``study_id``'s HITs."""

    def __init__(self, settings: Settings, sandbox: bool, study_id: str, client: Any = None) -> None:
        super().__init__(settings, sandbox=sandbox, client=client)
        self.study_id = study_id

    @classmethod
    def like(cls, provider: MTurkProvider, study_id: str) -> StudyMTurkProvider:
        """The same account and client as ``provider``, for one study."""
        return cls(provider.settings, provider.sandbox, study_id, client=provider.client)

    def rated_qualification(self) -> str:
        """This study's *rated* qualification type, found again or made once."""
        return self.qualification_type(
            f"rated:{self.study_id}",
            f"avd {self.settings.study} rated {self.study_id}",
            "Workers who already took part in this rating study.",
        )

    def requirements(self) -> list[dict[str, Any]]:
        limit = self.qualification("limit") if self.settings.mturk_max_dialogs_per_worker else None
        reqs = [r for r in super().requirements() if r["QualificationTypeId"] != limit]
        reqs.insert(
            1,
            {
                "QualificationTypeId": self.rated_qualification(),
                "Comparator": "DoesNotExist",
                "ActionsGuarded": "DiscoverPreviewAndAccept",
            },
        )
        return reqs

    def mark_rated(self, worker: str) -> None:
        """Keep a rater who submitted out of this study's other HITs."""
        self._call(
            "associate_qualification_with_worker",
            QualificationTypeId=self.rated_qualification(),
            WorkerId=worker,
            IntegerValue=1,
            SendNotification=False,
        )
