import { CopyOutlined } from '@ant-design/icons';
import type { BlockchainNetwork, Chain } from '@gpu/shared/blockchain';
import { USD_CNY_TENTHS } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { Alert, Button, Skeleton } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { copyToClipboard } from '../../../lib/clipboard';
import { notify } from '../../../lib/feedback';
import { t } from '../../../locales/zh-CN';
import { useBlockchainNetworks } from '../api/blockchain';
import styles from './ReceivePanel.module.css';

const r = t.blockchain.receive;
const QR_SIZE = 148;

function Receive({ network }: { network: BlockchainNetwork }) {
  const coins = network.currencies.join(' / ');
  if (!network.address)
    return <Alert type="warning" showIcon title={r.closed} data-testid="receive-closed" />;
  const address = network.address;
  const copy = async () => {
    if (await copyToClipboard(address)) void notify('success', r.copied);
    else void notify('error', r.copyFailed);
  };
  return (
    <div className={styles.panel} data-testid="receive-panel" data-chain={network.chain}>
      <div className={styles.qr}>
        <QRCodeSVG
          value={address}
          size={QR_SIZE}
          level="M"
          marginSize={0}
          title={r.qrAlt(network.label)}
          data-testid="receive-qr"
        />
      </div>
      <div className={styles.body}>
        <div className={styles.label}>{r.address(network.label)}</div>
        <div className={styles.addressRow}>
          <code className={styles.address} data-testid="receive-address">
            {address}
          </code>
          <Button icon={<CopyOutlined />} onClick={copy} className={styles.copy} data-testid="receive-copy">
            {r.copy}
          </Button>
        </div>
        {network.demo ? (
          <Alert type="error" showIcon title={r.demo} className={styles.alert} data-testid="receive-demo" />
        ) : null}
        <Alert
          type="warning"
          showIcon
          title={r.wrongNetwork(network.label, coins)}
          className={styles.alert}
          data-testid="receive-network-warning"
        />
        <dl className={styles.facts}>
          <div>
            <dt>{r.minAmount}</dt>
            <dd data-testid="receive-min">
              {r.minAmountValue(
                network.minAmount,
                coins,
                formatMoney((network.minAmount * USD_CNY_TENTHS) / 10),
              )}
            </dd>
          </div>
          <div>
            <dt>{r.confirmations}</dt>
            <dd data-testid="receive-confirmations">{r.confirmationsValue(network.confirmations)}</dd>
          </div>
        </dl>
      </div>
    </div>
  );
}

/** Where to pay on the chosen network: address with copy and QR, the network warning, minimum, confirmations. */
export function ReceivePanel({ chain }: { chain: Chain }) {
  const networks = useBlockchainNetworks();
  const network = networks.data?.find((n) => n.chain === chain);
  return (
    <section className={styles.wrap} aria-label={r.title}>
      <p className={styles.step}>{r.step}</p>
      {networks.isError ? (
        <Alert type="error" showIcon title={r.loadFailed} />
      ) : network ? (
        <Receive network={network} />
      ) : (
        <Skeleton active paragraph={{ rows: 3 }} />
      )}
    </section>
  );
}
