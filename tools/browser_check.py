"""Open pages in headless Chromium (DevTools protocol over a websocket; no extra dependency) and report what a
reader would hit: JavaScript errors, broken internal links and anchors, missing images, equations left untypeset.
`python tools/browser_check.py [_docs] [--shots=DIR]` checks every page of a built site; tests/test_browser.py uses it."""
import base64, json, os, shutil, subprocess, sys, tempfile, time, urllib.parse, urllib.request
from pathlib import Path

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars', '--window-size=1280,900']

def find_chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome', 'chrome'):
        if shutil.which(name): return shutil.which(name)
    return None

# what each page reports, evaluated once its scripts ran
PROBE = r"""(() => {
  const main = document.querySelector('main') || document.body, bad = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {acceptNode: n => {
    for (let e = n.parentElement; e && e !== main; e = e.parentElement)
      if (['PRE', 'CODE', 'SCRIPT', 'STYLE', 'TEXTAREA'].includes(e.tagName) || e.classList.contains('katex')) return NodeFilter.FILTER_REJECT;
    return NodeFilter.FILTER_ACCEPT; }});
  const tex = /\$\$[^$]+\$\$|\$[^$\s][^$]*?\$|\\\(|\\\[|\\(frac|sum|mathbb|mathcal|alpha|epsilon|sigma|lambda)\b/;
  for (let n; (n = walker.nextNode());) if (tex.test(n.textContent)) bad.push(n.textContent.trim().slice(0, 80));
  return JSON.stringify({
    title: document.title, math: document.body.getAttribute('data-math'),
    katex: document.querySelectorAll('.katex').length, katexErrors: [...document.querySelectorAll('.katex-error')].map(e => e.textContent.slice(0, 80)),
    untypeset: bad,
    images: [...document.images].map(i => ({src: i.getAttribute('src').slice(0, 60), ok: i.complete && i.naturalWidth > 0})),
    links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
    ids: [...document.querySelectorAll('[id]')].map(e => e.id),
  });
})()"""

class Chromium:
    "A headless Chromium with one tab, driven over the DevTools protocol."
    def __init__(self, exe=None):
        import websocket  # websocket-client, a Jupyter dependency
        self.exe = exe or find_chromium()
        if not self.exe: raise FileNotFoundError('Chromium not found (Debian: apt-get install -y chromium)')
        self.profile = tempfile.mkdtemp(prefix='tnb-chromium-')
        self.proc = subprocess.Popen([self.exe, *FLAGS, f'--user-data-dir={self.profile}', '--remote-debugging-port=0', 'about:blank'],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / 'DevToolsActivePort'
        for _ in range(300):
            if port_file.exists() and port_file.read_text().count('\n') >= 1: break
            if self.proc.poll() is not None: raise RuntimeError(f'{self.exe} exited with {self.proc.returncode}')
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        tabs = json.load(urllib.request.urlopen(f'http://127.0.0.1:{port}/json'))
        ws = next(t for t in tabs if t.get('type') == 'page')['webSocketDebuggerUrl']
        self.ws, self.n, self.events = websocket.create_connection(ws, timeout=60, suppress_origin=True), 0, []
        for m in ('Page.enable', 'Runtime.enable', 'Log.enable'): self.send(m)

    def send(self, method, **params):
        self.n += 1; i = self.n
        self.ws.send(json.dumps({'id': i, 'method': method, 'params': params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get('id') == i:
                if 'error' in msg: raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get('result', {})
            self.events.append(msg)

    def wait_for(self, method, timeout=30):
        t0 = time.time()
        while time.time() - t0 < timeout:
            for k, e in enumerate(self.events):
                if e.get('method') == method: return self.events.pop(k)
            self.ws.settimeout(max(0.1, timeout - (time.time() - t0)))
            try: self.events.append(json.loads(self.ws.recv()))
            except Exception: break
        raise TimeoutError(method)

    def eval(self, expr):
        r = self.send('Runtime.evaluate', expression=expr, returnByValue=True, awaitPromise=True)
        return r.get('result', {}).get('value')

    def open(self, url, settle=('document.body && document.body.getAttribute("data-math")', 5)):
        "Load `url`; returns the JS errors it raised (exceptions, console errors, failed loads)."
        self.events.clear()
        self.send('Page.navigate', url=url)
        self.wait_for('Page.loadEventFired')
        expr, secs = settle or (None, 0)
        t0 = time.time()
        while expr and time.time() - t0 < secs and not self.eval(expr): time.sleep(0.05)
        self.send('Runtime.evaluate', expression='1')  # drain events queued so far
        errs = []
        for e in self.events:
            m, p = e.get('method'), e.get('params', {})
            if m == 'Runtime.exceptionThrown': errs.append(p['exceptionDetails'].get('exception', {}).get('description') or p['exceptionDetails'].get('text'))
            elif m == 'Runtime.consoleAPICalled' and p.get('type') == 'error': errs.append('console.error: ' + ' '.join(str(a.get('value', a.get('description'))) for a in p.get('args', [])))
            elif m == 'Log.entryAdded' and p['entry'].get('level') == 'error': errs.append(f"{p['entry'].get('source')}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return errs

    def screenshot(self, path, full=False):
        kw = {}
        if full:
            h = self.eval('Math.min(document.documentElement.scrollHeight, 6000)') or 900
            kw = dict(clip=dict(x=0, y=0, width=1280, height=h, scale=1), captureBeyondViewport=True)
        Path(path).write_bytes(base64.b64decode(self.send('Page.captureScreenshot', format='png', **kw)['data']))

    def close(self):
        try: self.ws.close()
        finally:
            self.proc.terminate()
            try: self.proc.wait(10)
            except subprocess.TimeoutExpired: self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)

def check_site(docs, shots=None, shot_pages=('index.html', 'privacy.accounting.html', 'viz.html'), browser=None):
    "Open every page of the built site `docs`; returns (problems, reports). Screenshots of `shot_pages` go to `shots`."
    docs = Path(docs).resolve()
    pages = sorted(docs.glob('*.html'))
    br = browser or Chromium()
    reports, problems = {}, []
    try:
        for p in pages:
            errs = br.open(p.as_uri())
            r = json.loads(br.eval(PROBE)); r['errors'] = errs; reports[p.name] = r
            if shots and p.name in shot_pages:
                Path(shots).mkdir(parents=True, exist_ok=True); br.screenshot(Path(shots) / (p.stem + '.png'))
    finally:
        if browser is None: br.close()
    ids = {name: set(r['ids']) for name, r in reports.items()}
    for name, r in reports.items():
        problems += [f'{name}: JavaScript error: {e}' for e in r['errors']]
        problems += [f'{name}: image not loaded: {i["src"]}' for i in r['images'] if not i['ok']]
        if r['math'] != 'katex': problems.append(f'{name}: the math renderer did not run (data-math={r["math"]!r})')
        problems += [f'{name}: equation left untypeset: {t!r}' for t in r['untypeset']]
        problems += [f'{name}: KaTeX error: {t!r}' for t in r['katexErrors']]
        for href in r['links']:
            u = urllib.parse.urlparse(href)
            if u.scheme or href.startswith('//'): continue  # external (or data:, mailto:)
            target = (docs / urllib.parse.unquote(u.path)).resolve() if u.path else docs / name
            if not target.exists(): problems.append(f'{name}: broken link {href}'); continue
            if u.fragment and target.suffix == '.html' and target.name in ids and urllib.parse.unquote(u.fragment) not in ids[target.name]:
                problems.append(f'{name}: link to a missing anchor {href}')
    return problems, reports

if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    shots = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--shots=')]
    t0 = time.time()
    problems, reports = check_site(args[0] if args else 'docs', shots=shots[0] if shots else None)
    n_math = sum(r['katex'] for r in reports.values())
    print(f'{len(reports)} pages, {n_math} equations typeset, {sum(len(r["images"]) for r in reports.values())} images, '
          f'{sum(len(r["links"]) for r in reports.values())} links checked in {time.time() - t0:.0f} s')
    for p in problems: print('PROBLEM', p)
    sys.exit(1 if problems else 0)
