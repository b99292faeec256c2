import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "./system-chromium.ts";

/** A test case as a CI system reads it from JUnit XML. */
export interface JunitCase {
  suite: string;
  classname: string;
  name: string;
  failure: string | null;
}

/** The part of the page's DOM the check reads (this package compiles without DOM types). */
interface XmlElement {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly children: ArrayLike<XmlElement>;
  getAttribute(name: string): string | null;
  querySelector(selectors: string): XmlElement | null;
  querySelectorAll(selectors: string): ArrayLike<XmlElement>;
}
interface XmlDocument {
  readonly documentElement: XmlElement;
  querySelector(selectors: string): XmlElement | null;
}
type XmlParser = new () => { parseFromString(text: string, type: string): XmlDocument };

/**
 * Reads JUnit XML with Chromium's XML parser and checks the shape CI systems rely on (Jenkins'
 * junit-10.xsd, GitLab, GitHub's reporters): a <testsuites> root of <testsuite> elements whose
 * tests/failures/errors/skipped counts match their <testcase> children (and the root's, when it
 * has them, the sum), each case named with a
 * classname and holding at most one <failure> with a message. Returns the cases, or throws with
 * every problem found.
 */
export async function readJunitXml(xml: string): Promise<JunitCase[]> {
  const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const { problems, cases } = await page.evaluate((text) => {
      const problems: string[] = [];
      const cases: JunitCase[] = [];
      const { DOMParser } = globalThis as unknown as { DOMParser: XmlParser };
      const document = new DOMParser().parseFromString(text, "application/xml");
      const error = document.querySelector("parsererror");
      if (error) return { problems: [`not well-formed XML: ${error.textContent}`], cases };
      const root = document.documentElement;
      if (root.tagName !== "testsuites") problems.push(`the root is <${root.tagName}>`);
      const count = (element: XmlElement, name: string) => element.getAttribute(name);
      for (const suite of Array.from(root.children)) {
        if (suite.tagName !== "testsuite") {
          problems.push(`<testsuites> holds <${suite.tagName}>`);
          continue;
        }
        const testcases = Array.from(suite.children).filter(
          (child) => child.tagName === "testcase",
        );
        const failed = testcases.filter((testcase) => testcase.querySelector(":scope > failure"));
        if (!suite.getAttribute("name")) problems.push("a testsuite has no name");
        if (count(suite, "tests") !== String(testcases.length)) {
          problems.push(`tests="${count(suite, "tests")}" for ${testcases.length} test cases`);
        }
        if (count(suite, "failures") !== String(failed.length)) {
          problems.push(`failures="${count(suite, "failures")}" for ${failed.length} failures`);
        }
        for (const name of ["errors", "skipped", "time"]) {
          if (!/^\d+(\.\d+)?$/.test(count(suite, name) ?? ""))
            problems.push(`${name} is not a number`);
        }
        for (const testcase of testcases) {
          const failures = testcase.querySelectorAll(":scope > failure");
          if (!testcase.getAttribute("name") || !testcase.getAttribute("classname")) {
            problems.push("a testcase lacks its name or classname");
          }
          if (failures.length > 1) problems.push("a testcase has several failures");
          const failure = failures[0];
          if (failure && !failure.getAttribute("message"))
            problems.push("a failure has no message");
          cases.push({
            suite: suite.getAttribute("name") ?? "",
            classname: testcase.getAttribute("classname") ?? "",
            name: testcase.getAttribute("name") ?? "",
            failure: failure ? failure.getAttribute("message") : null,
          });
        }
      }
      const failures = cases.filter((testcase) => testcase.failure !== null).length;
      if (count(root, "tests") !== null && count(root, "tests") !== String(cases.length)) {
        problems.push(
          `<testsuites tests="${count(root, "tests")}"> for ${cases.length} test cases`,
        );
      }
      if (count(root, "failures") !== null && count(root, "failures") !== String(failures)) {
        problems.push(
          `<testsuites failures="${count(root, "failures")}"> for ${failures} failures`,
        );
      }
      return { problems, cases };
    }, xml);
    if (problems.length > 0) throw new Error(`JUnit XML: ${problems.join("; ")}`);
    return cases;
  } finally {
    await browser.close();
  }
}
