// An answer that is not the envelope: what a provider's handshake expects verbatim (Slack's
// `url_verification` wants `{"challenge": …}` back). The server sends a WebhookReply as it is.

import type { ServerResponse } from "node:http";
import { JSON_TYPE, sendWhole } from "../core/answer/index.js";

export class WebhookReply {
  readonly status: number;
  readonly body: string;

  constructor(status: number, json: unknown) {
    this.status = status;
    this.body = JSON.stringify(json);
  }

  send(res: ServerResponse): void {
    sendWhole(res, this.status, { type: JSON_TYPE, content: this.body });
  }
}
