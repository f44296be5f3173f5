import { RpcErrorCode } from '../../protocol/errors';
import { MAX_YOLO_MINUTES } from '../../protocol/limits';
import type { RuntimeState } from '../../protocol/methods';
import { RuntimeRequestError } from './errors';

type YoloState = RuntimeState['yolo'];

/** Unrestricted (yolo) mode of a session: on, off, or on until a timer turns it off (`expired`). */
export class YoloSwitch {
  private until: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private on = false;

  /** `changed` updates the session's permission mode and tells the host (`yolo_changed`). */
  constructor(private readonly changed: (state: YoloState, reason: 'requested' | 'expired') => void) {}

  get active(): boolean {
    return this.on;
  }

  /** `timeoutMinutes` must be positive and at most MAX_YOLO_MINUTES (Node timers cannot wait much longer than 24 days). */
  set(enabled: boolean, timeoutMinutes?: number): YoloState {
    if (timeoutMinutes !== undefined && !(timeoutMinutes > 0 && timeoutMinutes <= MAX_YOLO_MINUTES)) {
      throw new RuntimeRequestError(
        RpcErrorCode.InvalidParams,
        `timeoutMinutes must be a positive number of at most ${MAX_YOLO_MINUTES} (7 days), got ${timeoutMinutes}; leave it out to keep yolo on until it is turned off`,
      );
    }
    return this.change(enabled, timeoutMinutes, 'requested');
  }

  /** Turns yolo on or off and reports it; a timed yolo turns itself off (`expired`). */
  private change(enabled: boolean, timeoutMinutes: number | undefined, reason: 'requested' | 'expired'): YoloState {
    this.stop();
    this.on = enabled;
    this.until = enabled && timeoutMinutes ? Date.now() + timeoutMinutes * 60_000 : undefined;
    if (this.until) {
      this.timer = setTimeout(() => this.change(false, undefined, 'expired'), this.until - Date.now());
      this.timer.unref();
    }
    const state = this.state();
    this.changed(state, reason);
    return state;
  }

  state(): YoloState {
    return { active: this.on, ...(this.until ? { expiresAt: new Date(this.until).toISOString() } : {}) };
  }

  /** Stops the timer (the session ends). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
