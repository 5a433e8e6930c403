"""The browser table's pieces as the table tests pick them: a tile by its
code, and a drag that waits until its tile has landed."""


def tile(page, code, where=".tk-rack"):
    return page.locator(f'{where} button.tk-tile[data-code="{code}"]').first


def drag_into(page, code, target, meld):
    """Drag a rack tile to ``target`` and wait until it stands in meld
    ``meld`` (a drag whose drop met a redraw, on a loaded machine, is made
    again: the check of the last move may redraw the table mid-drag)."""
    landed = f'.tk-meld[data-meld="{meld}"] [data-code="{code}"]'
    for _ in range(3):
        # the last change's check has come back: its answer redraws the table
        page.wait_for_function("document.querySelector('#table-app').dataset.checking !== '1'", timeout=15000)
        if page.locator(f'.tk-rack [data-code="{code}"]').count():
            tile(page, code).drag_to(page.locator(target).first)
        try:
            page.wait_for_selector(landed, timeout=4000)
            return
        except Exception:  # noqa: BLE001 - tried again below
            continue
    melds = page.locator(".tk-meld").evaluate_all(
        "els => els.map(e => Array.from(e.querySelectorAll('[data-code]')).map(t => t.dataset.code).join(' '))")
    raise AssertionError(f"{code} never reached meld {meld}: melds {melds}")
