import { APP_EVENTS, BILLING_TYPES, type BillingType } from '@gpu/shared/constants';
import {
  createInstanceRequestSchema,
  defaultInstanceName,
  instanceMessages,
  instanceNameSchema,
} from '@gpu/shared/instances';
import type { MarketItem } from '@gpu/shared/market';
import { isOverseasSku } from '@gpu/shared/market';
import { formatCurrency } from '@gpu/shared/money';
import { displayPrices } from '@gpu/shared/price-display';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from 'antd';
import { type ReactNode, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import { Price } from '../../../components/Price';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { isLoggedIn } from '../../../lib/session';
import { t } from '../../../locales/zh-CN';
import { useSession } from '../../auth/use-session';
import { useBalance } from '../../billing/api/get-balance';
import { billingKeys } from '../../billing/api/keys';
import { marketKeys } from '../../market/api/keys';
import { useQuote } from '../api/calculate-price';
import { useCreateInstance } from '../api/create-instance';
import { useImages } from '../api/get-images';
import { usePackagePricing } from '../api/get-package-pricing';
import { useAvailableVouchers } from '../api/get-vouchers';
import { subscribeKeys } from '../api/keys';
import { clampGpuCount, gpuCountBounds } from '../gpu-count';
import { cascaderReducer, INITIAL_CASCADER } from '../image-cascader';
import { type Figures, orderFigures, packagePricesFor, quoteFigures, quoteMatches } from '../order-figures';
import { clampDuration, durationBounds } from '../subscribe-params';
import { isApplicable, type Voucher } from '../vouchers';
import { HostCard } from './HostCard';
import { ImageCascader } from './ImageCascader';
import { InstanceNameField } from './InstanceNameField';
import { OptionGroup } from './OptionGroup';
import { OrderBar, type QuoteState } from './OrderBar';
import styles from './SubscribeForm.module.css';
import { VoucherSelector } from './VoucherSelector';

const s = t.subscribe;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className={styles.section} aria-label={title} data-testid={testId}>
      <h2 className={styles.sectionTitle}>{title}</h2>
      <div className={styles.sectionBody}>{children}</div>
    </section>
  );
}

/** What a failed create shows (SPEC.md §8): the server's message, else '容器创建失败'. */
export function createFailureMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'TIMEOUT') return s.createTimeout;
    if (err.status > 0 && err.message) return err.message;
  }
  return s.createFailed;
}

export interface SubscribeFormProps {
  item: MarketItem;
  billingType: BillingType;
  onBillingChange: (billingType: BillingType) => void;
}

/** The create-instance form of SPEC.md §2 for one machine, with the sticky bottom bar. */
export function SubscribeForm({ item, billingType, onBillingChange }: SubscribeFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const overseas = isOverseasSku(item.skuGpuId);

  // Discount: live until its end passes on this screen (SPEC.md §4).
  const [discountEnded, setDiscountEnded] = useState(false);
  const discountLive = item.hasDiscount && !discountEnded;
  const endDiscount = () => {
    if (discountEnded) return;
    setDiscountEnded(true);
    void notify('warning', s.discountEnded);
  };

  const bounds = gpuCountBounds(item);
  const [gpuWanted, setGpuWanted] = useState(1);
  const gpuAmount = clampGpuCount(gpuWanted, bounds);

  const [durationWanted, setDurationWanted] = useState(1);
  const duration = clampDuration(durationWanted, billingType);

  const [cascader, dispatchCascader] = useReducer(cascaderReducer, INITIAL_CASCADER);
  const images = useImages(item.gpuBrand, overseas ? 'vast.ai' : 'local');

  const order = useMemo(() => ({ gpuType: item.gpuName, regionId: item.regionId }), [item]);
  const vouchers = useAvailableVouchers(order);
  const [voucherChosen, setVoucher] = useState<Voucher | null>(null);
  // A chosen voucher that no longer applies (expired while here) is dropped.
  const voucher = voucherChosen && isApplicable(voucherChosen, Date.now(), order) ? voucherChosen : null;

  const [name, setName] = useState(() => defaultInstanceName(item.gpuName, new Date()));
  const [nameTouched, setNameTouched] = useState(false);
  const nameCheck = instanceNameSchema.safeParse(name);
  const nameError = nameCheck.success
    ? null
    : (nameCheck.error.issues[0]?.message ?? instanceMessages.nameInvalid);

  const pricing = usePackagePricing(item.gpuName, true);
  const packagePrices = packagePricesFor(pricing.data, item.regionId);
  const pricingReady = billingType === 'hourly' || !pricing.isPending;

  const local = orderFigures({
    item,
    billingType,
    duration,
    gpuAmount,
    packagePrices,
    discountLive,
    voucherRemaining: voucher?.remainingAmount ?? null,
  });

  // The server's quote for the same order: shown as verified, or it wins when it differs.
  const quote = useQuote(
    bounds.max > 0
      ? { machineId: item.id, billingType, duration, gpuAmount, voucherId: voucher?.id ?? null }
      : null,
    discountLive,
  );
  let quoteState: QuoteState = null;
  let figures: Figures = local;
  const q = quote.data;
  const current =
    q &&
    !quote.isPlaceholderData &&
    q.billingType === billingType &&
    q.gpuAmount === gpuAmount &&
    q.duration === (billingType === 'hourly' ? 1 : duration);
  if (quote.isFetching && !current) quoteState = 'verifying';
  else if (q && current && !quote.isError) {
    if (quoteMatches(local, q)) quoteState = 'verified';
    else {
      quoteState = 'changed';
      figures = quoteFigures(q);
    }
  }

  const balance = useBalance(isLoggedIn(session));
  const create = useCreateInstance();

  let blockedReason: string | null = null;
  if (bounds.max < 1) blockedReason = s.noIdle;
  else if (!cascader.selected) blockedReason = s.bar.needImage;
  else if (nameError) blockedReason = s.bar.needName;
  else if (!pricingReady) blockedReason = t.common.loading;

  const submit = () => {
    if (create.isPending || blockedReason || !cascader.selected) return;
    const payload = {
      machineId: item.id,
      instanceName: name,
      image: cascader.selected.imageUrl,
      gpuAmount,
      duration: billingType === 'hourly' ? 1 : duration,
      billingType,
      // Only a chosen voucher is sent: the server refuses one it cannot apply.
      ...(voucher ? { voucherId: voucher.id } : {}),
    };
    const checked = createInstanceRequestSchema.safeParse(payload);
    if (!checked.success) {
      void notify('error', `${s.createError}：${checked.error.issues[0]?.message ?? ''}`);
      return;
    }
    create.mutate(payload, {
      onSuccess: (instance) => {
        void notify('success', s.created);
        window.dispatchEvent(new CustomEvent(APP_EVENTS.instanceCreated, { detail: instance }));
        window.dispatchEvent(new CustomEvent(APP_EVENTS.balance));
        void queryClient.invalidateQueries({ queryKey: billingKeys.balance() });
        void queryClient.invalidateQueries({ queryKey: marketKeys.all });
        queryClient.removeQueries({ queryKey: subscribeKeys.all });
        navigate(PATHS.console.root);
      },
      onError: (err) => {
        void notify('error', createFailureMessage(err));
        // Idle GPUs, prices or the machine itself may have changed: read them again.
        if (err instanceof ApiError && [404, 409, 422].includes(err.status)) {
          void queryClient.invalidateQueries({ queryKey: subscribeKeys.item(item.skuGpuId) });
          void quote.refetch();
        }
      },
    });
  };

  // Each billing card shows one GPU for one period of it.
  const billingOptions = BILLING_TYPES.map((type) => {
    const unit = orderFigures({
      item,
      billingType: type,
      duration: 1,
      gpuAmount: 1,
      packagePrices,
      discountLive,
      voucherRemaining: null,
    });
    const ready = type === 'hourly' || !pricing.isPending;
    return {
      value: type,
      label: s.billing[type],
      ariaLabel: ready
        ? `${s.billing[type]} ${formatCurrency(unit.discountedUnitPrice)}${s.unit[type]}`
        : undefined,
      extra: ready ? <Price value={unit.discountedUnitPrice} unit={s.unit[type]} size="sm" /> : '…',
    };
  });

  const limits = durationBounds(billingType);
  const durationUnit = billingType === 'hourly' ? '' : s.durationUnit[billingType];
  const paid = displayPrices(discountLive ? item.discountPrice : item.originalPrice);

  return (
    <div className={styles.form}>
      {discountEnded ? (
        <Alert
          type="warning"
          showIcon
          message={s.discountEnded}
          className={styles.alert}
          data-testid="discount-ended"
        />
      ) : null}

      <div className={styles.card}>
        <Section title={s.sections.billing} testId="section-billing">
          <OptionGroup
            variant="cards"
            label={s.sections.billing}
            options={billingOptions}
            value={billingType}
            onChange={onBillingChange}
            testId="billing-choice"
          />
          <p className={styles.hint}>{s.billingHint[billingType]}</p>
        </Section>

        <Section title={s.sections.host} testId="section-host">
          <HostCard item={item} discountLive={discountLive} onDiscountEnd={endDiscount} />
        </Section>

        <Section title={s.sections.gpuCount} testId="section-gpu-count">
          {bounds.max < 1 ? (
            <p className={styles.warn}>{s.noIdle}</p>
          ) : (
            <>
              <OptionGroup
                label={s.sections.gpuCount}
                options={Array.from({ length: Math.max(bounds.max, 8) }, (_, i) => i + 1)
                  .filter((n) => !bounds.fixed || n === bounds.max)
                  .map((n) => ({ value: n, label: s.cards(n), disabled: n > bounds.max }))}
                value={gpuAmount}
                onChange={setGpuWanted}
                disabled={bounds.fixed}
                testId="gpu-count"
              />
              <p className={styles.hint}>
                {bounds.fixed ? s.gpuCountFixed : s.gpuCountHint(bounds.max)}
                {' · '}
                {s.perGpu} <Price value={paid.perHour} unit={s.unit.hourly} size="sm" />
              </p>
            </>
          )}
        </Section>

        {billingType !== 'hourly' ? (
          <Section title={s.sections.duration} testId="section-duration">
            <OptionGroup
              label={s.sections.duration}
              options={Array.from({ length: limits.max - limits.min + 1 }, (_, i) => limits.min + i).map(
                (n) => ({ value: n, label: s.durationOption(n, durationUnit) }),
              )}
              value={duration}
              onChange={setDurationWanted}
              testId="duration"
            />
            <p className={styles.hint}>{s.durationHint(limits.max, durationUnit)}</p>
          </Section>
        ) : null}
      </div>

      <div className={styles.card}>
        <Section title={s.sections.image} testId="section-image">
          <ImageCascader
            imageMap={images.data?.imageMap}
            loading={images.isPending}
            failed={images.isError}
            onRetry={() => void images.refetch()}
            state={cascader}
            dispatch={dispatchCascader}
          />
        </Section>

        <Section title={s.sections.voucher} testId="section-voucher">
          <VoucherSelector
            vouchers={vouchers.data ?? []}
            loading={vouchers.isPending}
            failed={vouchers.isError}
            onRetry={() => void vouchers.refetch()}
            order={order}
            selected={voucher}
            onSelect={setVoucher}
            deduction={figures.voucherDeduction}
          />
        </Section>

        <Section title={s.sections.name} testId="section-name">
          <InstanceNameField
            value={name}
            onChange={(value) => {
              setName(value);
              setNameTouched(true);
            }}
            error={nameError}
            touched={nameTouched}
            onBlur={() => setNameTouched(true)}
            onRegenerate={() => setName(defaultInstanceName(item.gpuName, new Date()))}
          />
        </Section>
      </div>

      <OrderBar
        figures={figures}
        billingType={billingType}
        duration={duration}
        quote={quoteState}
        balance={balance.data?.available ?? null}
        blockedReason={blockedReason}
        creating={create.isPending}
        onCreate={submit}
      />
    </div>
  );
}
