import { ConfigError, loadConfig, providerBanner } from './app/config.ts';
import { buildServer } from './app/server.ts';
import { prepareDatabase } from './modules/system/system.usecases.ts';
import { openDatabase } from './platform/db/client.ts';
import { secretBoxOf } from './platform/secret-box.ts';

// Start-up order: config -> database (migrate, first-start data) -> app -> listen.
async function main() {
  const startedAt = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const { seeded, admin, secrets } = await prepareDatabase(database, {
    demo: config.demoData,
    admin: { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD },
    // Plain host secrets are sealed, and values under APP_SECRET_PREVIOUS sealed again under APP_SECRET.
    box: secretBoxOf(config),
    log: (msg, detail) => console.error(`密钥处理: ${msg}`, detail),
  });

  const app = await buildServer({
    config,
    database,
    logger: {
      level: config.LOG_LEVEL,
      ...(config.NODE_ENV === 'development' && process.stdout.isTTY
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'SYS:standard', ignore: 'pid,hostname' },
            },
          }
        : {}),
    },
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Safe on every replica at once (DESIGN §12); TASKS=off leaves them to other processes.
  if (config.TASKS === 'on') app.tasks.start();
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    '',
    `  GPU 算力平台已启动: ${url}  (${Math.round(performance.now() - startedAt)} ms)`,
    `  数据库: ${database.kind === 'pglite' ? `PGlite (${config.dataDir})` : 'PostgreSQL'}${seeded ? '，已写入首次启动数据' : ''}`,
    `  管理后台: ${url}/admin/login   API 文档: ${url}/api/docs${config.apiDocs === 'public' ? '' : '（需登录）'}`,
    // Production refuses every simulated provider (config.ts); elsewhere the banner names them.
    ...providerBanner(config),
  ];
  if (secrets && secrets.hosts + secrets.instances + secrets.answers > 0) {
    lines.push(
      `  密钥: 已用当前 APP_SECRET 重新加密 ${secrets.hosts} 台主机的连接密钥、${secrets.instances} 个实例密码与令牌、${secrets.answers} 条幂等应答`,
    );
  }
  if (secrets && secrets.failed > 0) {
    lines.push(
      `  警告: ${secrets.failed} 个已加密的值无法用 APP_SECRET 或 APP_SECRET_PREVIOUS 解开（轮换密钥时请把旧密钥列入 APP_SECRET_PREVIOUS）`,
    );
  }
  if (admin.generatedPassword) {
    lines.push(
      `  首个管理员: 用户名 ${config.ADMIN_USERNAME}  密码 ${admin.generatedPassword}  （仅显示这一次，请妥善保存）`,
    );
  } else if (admin.created) {
    lines.push(`  首个管理员: 用户名 ${config.ADMIN_USERNAME}，密码取自 ADMIN_PASSWORD`);
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  console.error('启动失败:', err);
  process.exit(1);
});
