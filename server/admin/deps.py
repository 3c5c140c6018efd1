"""What every dashboard route needs: the services, the session signer, the logged-in researcher."""

from __future__ import annotations

from fastapi import Request

from server.admin.auth import AdminSessions, current_admin
from server.services import Services


def services_of(request: Request) -> Services:
    return request.app.state.services


def admin_sessions(request: Request) -> AdminSessions:
    return request.app.state.admin_sessions


def require_admin(request: Request) -> str:
    """A FastAPI dependency: 401 without a session, 403 for a change without the CSRF token."""
    return current_admin(request, admin_sessions(request))
