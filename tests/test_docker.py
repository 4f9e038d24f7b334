"""Static checks of the production stack in docker/ (no Docker engine runs on our machines).

``docker-compose config`` (Debian's docker-compose, installed by the test command) validates the
compose file against the Compose schema offline and resolves the YAML anchors; the checks below
read its output. The Dockerfile is checked for what the image must contain.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
ENV = {
    "SECRET_KEY": "s",
    "POSTGRES_PASSWORD": "p",
    "ALLOWED_HOSTS": "pulka.example",
    "PATH": "/usr/bin:/bin:/usr/local/bin",
}


def _compose(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    exe = shutil.which("docker-compose")
    assert exe, "docker-compose is missing: the test command installs it (apt docker-compose)"
    return subprocess.run(
        [exe, "-f", str(DOCKER / "compose.yaml"), *args],
        cwd=DOCKER,
        env=env if env is not None else ENV,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def compose_config() -> dict:
    import yaml

    out = _compose("config")
    assert out.returncode == 0, out.stderr
    return yaml.safe_load(out.stdout)


def test_compose_has_the_five_services_with_health_checks(compose_config):
    services = compose_config["services"]
    assert set(services) == {"web", "worker", "beat", "db", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no health check"
    for name in ("web", "worker", "beat"):
        deps = services[name]["depends_on"]
        assert deps["db"]["condition"] == "service_healthy"
        assert deps["redis"]["condition"] == "service_healthy"
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://pulka:p@db:5432/")
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
        assert env["DEBUG"] == "false"
        assert env["SECURE_COOKIES"] == "true"  # HTTPS unless said otherwise (issue 38)
    assert "/healthz" in json.dumps(services["web"]["healthcheck"])
    assert services["web"]["command"] == ["web"]
    assert services["worker"]["command"] == ["worker"]
    assert services["beat"]["command"] == ["beat"]
    assert any(
        v.startswith("pgdata:") or v.get("source") == "pgdata"
        if isinstance(v, dict)
        else v.startswith("pgdata:")
        for v in services["db"]["volumes"]
    )
    assert "pgdata" in compose_config["volumes"]


def test_compose_refuses_to_start_without_secrets():
    out = _compose("config", env={"PATH": ENV["PATH"]})
    assert out.returncode != 0
    assert "SECRET_KEY" in out.stderr


def test_dockerfile_installs_weasyprint_libraries_fonts_and_copies_existing_paths():
    text = (DOCKER / "Dockerfile").read_text()
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"):
        assert package in text
    for source in re.findall(r"^COPY (\S+)", text, flags=re.M):
        for part in source.split():
            assert (ROOT / part).exists(), f"Dockerfile copies {part}, which does not exist"
    assert "collectstatic" in text
    entry = (DOCKER / "entrypoint.sh").read_text()
    for role in ("web)", "worker)", "beat)", "gunicorn", "celery -A tournaments worker"):
        assert role in entry
