import { runAdapterConformance } from "@tessera/adapter-test";
import { createRedisClient, RedisAdapter } from "../src/index.js";
import { REDIS_URL, redisConformanceDb, uniqueKeyPrefix } from "./support.js";

const redis = createRedisClient(REDIS_URL);
const prefix = uniqueKeyPrefix();

runAdapterConformance("RedisAdapter on a single Redis", {
  adapter: RedisAdapter(redis, { prefix }),
  db: redisConformanceDb(redis, prefix, {
    async disconnect() {
      await redis.quit();
    },
  }),
  features: {
    twoFactor: true,
    organizations: true,
    organizationRoles: true,
    password: true,
    admin: true,
  },
});
