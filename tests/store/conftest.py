import pytest

from tests.real_services import postgres_database


@pytest.fixture(scope="session")
def postgres_url():
    yield from postgres_database()
