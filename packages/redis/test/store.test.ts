import { runSharedStoreConformance } from "@tessera/adapter-test";
import { createRedisClient, redisStore } from "../src/index.js";
import { deleteKeysWithPrefix, REDIS_URL, uniqueKeyPrefix } from "./support.js";

const redis = createRedisClient(REDIS_URL);
const prefix = uniqueKeyPrefix();

runSharedStoreConformance("redisStore on a single Redis", {
  store: redisStore(redis, { prefix }),
  async disconnect() {
    await deleteKeysWithPrefix(redis, prefix);
    await redis.quit();
  },
});
