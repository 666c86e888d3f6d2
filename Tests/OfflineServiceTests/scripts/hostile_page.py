#!/usr/bin/env python3
"""Opens a downloaded HTML content served by `offline serve` in headless Chromium (Debian's
chromium and chromium-driver, with Selenium), as a user who was sent its link would.

  hostile_page.py SERVICE_URL TOKEN CONTENT_PATH DOWNLOADS

Opens SERVICE_URL/?token=TOKEN (the printed link: it sets the token cookie), waits for the
page to be live, then opens SERVICE_URL + CONTENT_PATH, whose script tries to read
/api/contents and to add a download, and writes what it got in its title. Prints
"content title=..." and "content rendered=yes|no", then opens the page again and prints
"page live rows=N". A file the browser saves goes to DOWNLOADS. Every wait is bounded.
"""
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def main():
    service, token, content, downloads = sys.argv[1:5]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--window-size=1000,760"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    wait = WebDriverWait(driver, 30, poll_frequency=0.1)
    try:
        driver.get(service + "/?token=" + token)
        wait.until(lambda d: d.find_element(By.ID, "connection").text == "live")
        print("page live before", flush=True)

        try:
            driver.get(service + content)
        except WebDriverException as error:
            print("content navigation", type(error).__name__, flush=True)
        # The hostile script needs well under a second; give it three.
        deadline = time.time() + 3
        while time.time() < deadline and not driver.title.startswith("read="):
            time.sleep(0.1)
        print("content title=" + driver.title, flush=True)
        rendered = len(driver.find_elements(By.ID, "hostile")) > 0
        print("content rendered=" + ("yes" if rendered else "no"), flush=True)

        driver.get(service + "/")
        wait.until(lambda d: d.find_element(By.ID, "connection").text == "live")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "li.content")) > 0)
        time.sleep(0.5)
        print("page live rows=%d" % len(driver.find_elements(By.CSS_SELECTOR, "li.content")),
              flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
