# Reference seeds for seed-for.test.ts, from Python's hashlib (an independent implementation of the formula
# seed(salt, r) = first 4 bytes, big-endian, of sha256("<salt>:<r>") as an unsigned 32-bit integer).
# Run: python3 gen_seeds.py > seeds.json
import hashlib
import json

salts = ["0123456789abcdef", "", "salt with spaces", "ünïcødé·salt"]
out = []
for salt in salts:
    seeds = [int.from_bytes(hashlib.sha256(f"{salt}:{r}".encode("utf-8")).digest()[:4], "big") for r in list(range(10)) + [123456789]]
    out.append({"salt": salt, "r": list(range(10)) + [123456789], "seeds": seeds})
print(json.dumps({"source": "python3 hashlib, gen_seeds.py", "cases": out}, indent=2, ensure_ascii=False))
