#!/usr/bin/env python3
"""Drives the web page of `offline serve` in headless Chromium (Debian's chromium and
chromium-driver) with Selenium, as a user would.

  browser_drive.py PAGE_URL MEDIA_URL SCREENSHOT

Adds MEDIA_URL through the form, pauses it with its button while it downloads, plays it
while it is paused half-way, resumes it with its button, waits for the progress bar to reach 100 %, plays the
downloaded video in the page (its currentTime must advance) and saves a screenshot. Prints one line per step; exits 0 when
every step worked. Every wait is bounded.
"""
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def main():
    page, media, screenshot = sys.argv[1], sys.argv[2], sys.argv[3]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio",
                     "--window-size=1000,760", "--disable-gpu"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    wait = WebDriverWait(driver, 30, poll_frequency=0.1)
    try:
        driver.get(page)
        wait.until(lambda d: d.find_element(By.ID, "connection").text == "live")
        print("live")

        driver.find_element(By.ID, "add-url").send_keys(media)
        driver.find_element(By.ID, "add-title").send_keys("Test card")
        driver.find_element(By.ID, "add-button").click()
        row = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "li.content"))
        print("added", row.get_attribute("data-id"))

        def state():
            return row.get_attribute("data-state")

        def buttons():
            return [b.get_attribute("data-action") for b in row.find_elements(By.CSS_SELECTOR, ".actions button")]

        wait.until(lambda d: state() == "downloading" and "pause" in buttons())
        print("downloading buttons", ",".join(buttons()))
        wait.until(lambda d: float(row.find_element(By.TAG_NAME, "progress").get_attribute("value") or 0) > 0)
        row.find_element(By.CSS_SELECTOR, "button[data-action=pause]").click()
        wait.until(lambda d: state() == "suspended")
        print("suspended buttons", ",".join(buttons()))
        print("suspended bytes", row.find_element(By.CSS_SELECTOR, ".bytes").text)

        # Paused, the page offers the video already (the service reads the file through: what
        # is on disk, and the rest fetched for the player while the content stays paused),
        # and it plays.
        early = wait.until(lambda d: row.find_element(By.TAG_NAME, "video"))
        print("video while", state())
        driver.execute_script("arguments[0].muted = true; arguments[0].play();", early)
        wait.until(lambda d: d.execute_script("return arguments[0].currentTime;", early) > 0.5)
        print("played early while", state())
        driver.execute_script("arguments[0].pause();", early)
        resume = row.find_element(By.CSS_SELECTOR, "button[data-action=resume]")
        # Another event for the same state (they come in bursts) must not replace the button
        # the user is about to click (it did: the click raised "stale element").
        driver.execute_script("render(contents.get(arguments[0]));", row.get_attribute("data-id"))
        resume.click()
        wait.until(lambda d: state() in ("downloading", "downloaded"))
        print("resumed")

        WebDriverWait(driver, 60, poll_frequency=0.1).until(lambda d: state() == "downloaded")
        value = float(row.find_element(By.TAG_NAME, "progress").get_attribute("value"))
        print("progress", int(value), row.find_element(By.CSS_SELECTOR, ".percent").text)
        print("downloaded buttons", ",".join(buttons()))

        # A paused content with no byte and no known total: an empty bar, not a busy one.
        driver.execute_script(
            "render({id: 'idle', url: 'http://origin.test/idle.bin', state: 'suspended',"
            " bytes: 0, total: null, actions: ['resume', 'cancel']});")
        idle = driver.find_element(By.CSS_SELECTOR, "li[data-id=idle] progress")
        # An indeterminate bar's position is -1 (drawn busy); an empty one's 0.
        print("idle bar", driver.execute_script("return arguments[0].position;", idle),
              driver.find_element(By.CSS_SELECTOR, "li[data-id=idle] .bytes").text)
        driver.execute_script("document.querySelector('li[data-id=idle]').remove();")

        video = wait.until(lambda d: row.find_element(By.TAG_NAME, "video"))
        driver.execute_script("arguments[0].muted = true; arguments[0].play();", video)
        wait.until(lambda d: d.execute_script("return arguments[0].currentTime;", video) > 1.0)
        print("playing", round(driver.execute_script("return arguments[0].currentTime;", video), 1))
        driver.execute_script("arguments[0].pause();", video)
        driver.save_screenshot(screenshot)
        print("screenshot")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
