"""The organiser's login in the browser tests: the staff account ``desk``
that the tests' fixtures create, signed in through the admin's form."""

DESK = ("desk", "desk@example.invalid", "a-long-pass")


def sign_in(page, base):
    """Sign ``page`` in as ``desk`` and wait for the admin's index."""
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("#id_username", DESK[0])
    page.fill("#id_password", DESK[2])
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
