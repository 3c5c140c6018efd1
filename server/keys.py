"""Every Redis key, built in one place, prefixed by the study so two studies never mix."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    study: str

    @property
    def prefix(self) -> str:
        return f"avd:{self.study}"

    # lobby -----------------------------------------------------------------
    @property
    def queue(self) -> str:
        """ZSET worker -> time they joined (FIFO; requeued workers keep their time)."""
        return f"{self.prefix}:lobby:queue"

    @property
    def paused(self) -> str:
        return f"{self.prefix}:lobby:paused"

    def presence(self, worker: str) -> str:
        """STRING tab id with a TTL, refreshed while a connection is open."""
        return f"{self.prefix}:presence:{worker}"

    def where(self, worker: str) -> str:
        """HASH where the worker is: state (idle|lobby|matched|dialog|done), ids."""
        return f"{self.prefix}:worker:{worker}"

    def roles(self, worker: str) -> str:
        """HASH questioner/answerer -> how often the worker had that role."""
        return f"{self.prefix}:worker:{worker}:roles"

    def partners(self, worker: str) -> str:
        """ZSET partner -> when they were paired (recent-partner rule)."""
        return f"{self.prefix}:worker:{worker}:partners"

    def seen(self, worker: str) -> str:
        """SET stimuli the worker has been given, in either role."""
        return f"{self.prefix}:worker:{worker}:seen"

    def match(self, match_id: str) -> str:
        """HASH a pending pairing waiting for both join handshakes."""
        return f"{self.prefix}:match:{match_id}"

    # stimuli ---------------------------------------------------------------
    @property
    def stim_open(self) -> str:
        """ZSET stimulus -> dialogs collected or leased, for those still under target."""
        return f"{self.prefix}:stim:open"

    @property
    def stim_load(self) -> str:
        """HASH stimulus -> dialogs collected or leased (all stimuli)."""
        return f"{self.prefix}:stim:load"

    @property
    def stim_target(self) -> str:
        """HASH stimulus -> dialogs wanted."""
        return f"{self.prefix}:stim:target"

    # dialogs and time ------------------------------------------------------
    def dialog(self, dialog_id: str) -> str:
        """STRING the dialog state (JSON, see machine.DialogState)."""
        return f"{self.prefix}:dialog:{dialog_id}"

    def dialog_log(self, dialog_id: str) -> str:
        """LIST accepted chat messages as JSON, in order."""
        return f"{self.prefix}:dialog:{dialog_id}:log"

    def dialog_meta(self, dialog_id: str) -> str:
        """STRING the stimulus view (opinions, image key) shown to both roles."""
        return f"{self.prefix}:dialog:{dialog_id}:meta"

    @property
    def active_dialogs(self) -> str:
        """ZSET dialog -> start time, for live operations."""
        return f"{self.prefix}:dialogs:active"

    @property
    def deadlines(self) -> str:
        """ZSET "kind|id|role|at" -> due time; any process's sweeper fires them."""
        return f"{self.prefix}:deadlines"

    def channel(self, worker: str) -> str:
        """Pub/sub channel of frames for one worker, whichever process holds their socket."""
        return f"{self.prefix}:ch:{worker}"
