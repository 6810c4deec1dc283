// An answer that is not the envelope: what a provider's handshake expects verbatim (Slack's
// `url_verification` wants `{"challenge": …}` back). The server sends a WebhookReply as it is.

import type { ServerResponse } from "node:http";

export class WebhookReply {
  readonly status: number;
  readonly body: string;

  constructor(status: number, json: unknown) {
    this.status = status;
    this.body = JSON.stringify(json);
  }

  send(res: ServerResponse): void {
    res.writeHead(this.status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(this.body),
    });
    res.end(this.body);
  }
}
