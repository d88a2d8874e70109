// What no output of agent-state may contain: the control characters a terminal obeys (C0 but tab
// and newline, DEL, C1) and the bidi overrides.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
