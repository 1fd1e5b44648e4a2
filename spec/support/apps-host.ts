import type { Client, Transport } from '@modelcontextprotocol/client';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Frame, Page } from 'playwright-core';

type BridgeClient = ConstructorParameters<typeof AppBridge>[0];

/** What the host page's script defines: the way in to the View. */
interface HostPage {
  __toView(message: unknown): void;
  __load(html: string): void;
}

/**
 * The Content-Security-Policy the MCP Apps specification (2026-01-26, "Host Behavior") has a host
 * apply to a View whose resource declares no `csp`: no network, inline scripts and styles only.
 */
export const DEFAULT_VIEW_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

/** The host page: one sandboxed iframe (an opaque origin), and a relay of what the View posts to its parent. */
const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>phantom-mcp test host</title></head>
<body style="margin:0;font-family:sans-serif"><header style="padding:8px;background:#eee">test host</header>
<iframe sandbox="allow-scripts" style="width:640px;height:240px;border:1px solid #999"></iframe>
<script>
const view = document.querySelector('iframe');
addEventListener('message', (event) => {
  if (event.source === view.contentWindow) window.__toHost(event.data);
});
window.__toView = (message) => view.contentWindow.postMessage(message, '*');
window.__load = (html) => { view.srcdoc = html; };
</script></body></html>`;

/** A View on a host page in Chromium, its host bridge (the ext-apps package's `AppBridge`) running in Node. */
export interface HostedView {
  readonly bridge: AppBridge;
  /** Resolves when the View has sent `ui/notifications/initialized`; rejects on the first error the page reports before. */
  readonly initialized: Promise<void>;
  /** What the View asked the host to add to the model's context (`ui/update-model-context`), in order. */
  readonly modelContext: readonly unknown[];
  /** The View's frame, once it is loaded. */
  frame(): Frame;
  close(): Promise<void>;
}

/**
 * A web host as the specification's desktop path draws it, minus the sandbox proxy: the bridge,
 * connected to the server through `client` (the official SDK v2 client, connected and declaring
 * the extension), talks to the View over `postMessage`, relayed through the page. The View's
 * document `html` is loaded into the iframe with `csp` (the specification's default unless given)
 * once the bridge listens.
 */
export async function hostView(page: Page, client: Client, html: string, csp = DEFAULT_VIEW_CSP): Promise<HostedView> {
  const relay: Transport = {
    async start() {},
    async send(message) {
      await page.evaluate((posted) => (globalThis as unknown as HostPage).__toView(posted), message as unknown);
    },
    async close() {
      relay.onclose?.();
    },
  };
  await page.exposeFunction('__toHost', (message: unknown) => relay.onmessage?.(message as never));
  await page.setContent(HOST_PAGE);
  // The spec's client is the package's CommonJS build, the bridge's types name its ES module build: the same class.
  const bridge = new AppBridge(client as unknown as BridgeClient, { name: 'phantom-test-host', version: '1.0.0' }, {
    serverTools: {}, openLinks: {}, logging: {}, updateModelContext: { text: {} },
  });
  const modelContext: unknown[] = [];
  bridge.onupdatemodelcontext = async (params) => {
    modelContext.push(params);
    return {};
  };
  // A View that fails before initializing says why at once, instead of leaving the spec to time out.
  const initialized = new Promise<void>((resolve, reject) => {
    bridge.addEventListener('initialized', () => resolve());
    page.on('pageerror', (error) => reject(new Error(`the View failed before initializing: ${error.message}`)));
    page.on('console', (message) => void (message.type() === 'error' && reject(new Error(`the View failed before initializing: ${message.text()}`))));
  });
  await bridge.connect(relay as unknown as Parameters<AppBridge['connect']>[0]);
  const view = html.replace(/<head>/i, `<head><meta http-equiv="Content-Security-Policy" content="${csp}">`);
  await page.evaluate((srcdoc) => (globalThis as unknown as HostPage).__load(srcdoc), view);
  return {
    bridge,
    initialized,
    modelContext,
    frame: () => page.frames().find((frame) => frame !== page.mainFrame())!,
    close: () => bridge.close(),
  };
}
