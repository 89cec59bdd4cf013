import { AlipayCircleFilled, ArrowLeftOutlined, ClockCircleOutlined, LinkOutlined } from '@ant-design/icons';
import { PAYMENT_QR_SIZE } from '@gpu/shared/constants';

import { formatMmSs } from '@gpu/shared/time';
import { Button, Grid } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { MoneyFigure } from '../../../components/Price';
import { Token } from '../../../components/Token';
import { t } from '../../../locales/zh-CN';
import styles from './QrPaymentView.module.css';

const r = t.recharge;

/** The simulated provider's QR opens a page of our server; on a desktop, link to it too. */
const isSimulatedPayPage = (qrCode: string) => /^https?:\/\/[^/]+\/api\/pay\/simulated\//.test(qrCode);

interface Props {
  qrCode: string;
  orderNo: string;
  amount: number;
  secondsLeft: number;
  onBack: () => void;
  onPaid: () => void;
}

/**
 * SPEC.md §2: the QR (200 px, high error correction), countdown, amount, Back and I have paid.
 * A phone cannot scan its own screen: there 打开支付宝支付 comes first and the QR second. The
 * button opens the QR's own URL (Alipay's qr.alipay.com link hands over to the app; the simulated
 * provider's is its pay page) in a new tab, so this page keeps polling.
 */
export function QrPaymentView({ qrCode, orderNo, amount, secondsLeft, onBack, onPaid }: Props) {
  const expired = secondsLeft <= 0;
  const phone = Grid.useBreakpoint().md === false;
  return (
    <section className={styles.view} aria-label={r.qrTitle} data-testid="recharge-qr-view">
      <header className={styles.head}>
        <AlipayCircleFilled className={styles.alipay} />
        <h2 className={styles.title}>{r.qrTitle}</h2>
      </header>

      <div className={styles.amount}>
        <span className={styles.amountLabel}>{r.payAmount}</span>
        <span className={styles.amountValue} data-testid="recharge-qr-amount">
          <MoneyFigure value={amount} />
        </span>
      </div>

      {phone && (
        <>
          <Button
            type="primary"
            size="large"
            block
            icon={<AlipayCircleFilled />}
            href={qrCode}
            target="_blank"
            rel="noreferrer"
            disabled={expired}
            className={styles.openAlipay}
            data-testid="recharge-open-alipay"
          >
            {r.openAlipay}
          </Button>
          <p className={styles.hint}>{r.openAlipayHint}</p>
        </>
      )}

      <div className={`${styles.qr} ${expired ? styles.expired : ''}`}>
        <QRCodeSVG
          value={qrCode}
          size={PAYMENT_QR_SIZE}
          level="H"
          marginSize={0}
          title={r.qrAlt}
          data-testid="recharge-qr"
        />
        {expired && <div className={styles.overlay}>{r.countdownExpired}</div>}
      </div>

      <div
        className={`${styles.countdown} ${expired ? styles.countdownOver : ''}`}
        data-testid="recharge-countdown"
      >
        <ClockCircleOutlined />
        <span>{r.countdownLabel}</span>
        <strong>{formatMmSs(secondsLeft)}</strong>
      </div>

      {!phone && <p className={styles.hint}>{r.qrHint}</p>}
      {!phone && isSimulatedPayPage(qrCode) && (
        <a
          className={styles.payLink}
          href={qrCode}
          target="_blank"
          rel="noreferrer"
          data-testid="recharge-pay-link"
        >
          <LinkOutlined /> {r.openPayPage}
        </a>
      )}

      <div className={styles.order}>
        {r.orderNo}
        <span className={styles.orderNo} data-testid="recharge-order-no">
          <Token mono>{orderNo}</Token>
        </span>
      </div>

      <div className={styles.actions}>
        <Button size="large" icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="recharge-back">
          {r.back}
        </Button>
        <Button size="large" type="primary" onClick={onPaid} disabled={expired} data-testid="recharge-paid">
          {r.paid}
        </Button>
      </div>
    </section>
  );
}
