// internal/abort_controller, as far as webstreams use it.
export class AbortController {
  readonly signal: object;
  abort(reason?: unknown): void;
}
