// The seed's registration, byte for byte (its sha256 is the one the seed page prints).
export const SEED_REGISTRATION =
  'knob = "depth"\nstrictness = "strict"\nsplit = "eval"\ngenerator_version = "0"\nslack = 4\nhorizon = 8\narms = ["depth:d1", "depth:d3", "depth:d1+h3"]\n';
export const SEED_REGISTRATION_SHA256 = '642874648e05868eab18a6de12e2412ec9dd54dc045df29622973f3248411dc6';
