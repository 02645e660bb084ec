// The valibot schemas the peers that have no schema language of their own validate with.
import * as v from "valibot";

const int32 = v.pipe(
  v.string(),
  v.regex(/^-?\d{1,10}$/),
  v.transform(Number),
  v.number(),
  v.minValue(-2147483648),
  v.maxValue(2147483647),
);
export const IdParams = v.object({ id: int32 });
export const SearchQuery = v.object({ offset: v.optional(int32), limit: v.optional(int32, "10") });
export const CreateUser = v.object({ user: v.object({ name: v.string(), email: v.string() }) });
