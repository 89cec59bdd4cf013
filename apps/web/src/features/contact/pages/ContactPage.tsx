import { CheckCircleFilled, CustomerServiceOutlined } from '@ant-design/icons';
import { ENQUIRY_QUANTITY_DEFAULT, type EnquiryInput, enquiryRequestSchema } from '@gpu/shared/contact';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Select } from 'antd';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/feedback';
import { schemaRule } from '../../../lib/form-rules';
import { t } from '../../../locales/zh-CN';
import { submitEnquiry, useEnquiryProducts } from '../api/contact';
import styles from './ContactPage.module.css';

const c = t.contact;

/** SPEC.md §8: the server's message, else '提交失败，请稍后重试' (also when no answer came). */
export function enquiryFailureMessage(err: unknown): string {
  if (err instanceof ApiError && err.status > 0 && err.message && err.message !== t.api.httpError(err.status))
    return err.message;
  return c.messages.failure;
}

/** /contact (GPU裸金属): the bare-metal enquiry form, checked with the shared rules (SPEC.md §5). */
export default function ContactPage() {
  const [form] = Form.useForm<EnquiryInput>();
  const [params] = useSearchParams();
  const products = useEnquiryProducts();
  const wanted = params.get('product');
  const preselected = wanted && products.data?.includes(wanted) ? wanted : undefined;

  // The products arrive after the first render: choose the linked one then, unless chosen already.
  useEffect(() => {
    if (preselected && !form.getFieldValue('product')) form.setFieldValue('product', preselected);
  }, [preselected, form]);

  const mutation = useMutation({
    mutationFn: submitEnquiry,
    onSuccess: () => {
      void notify('success', c.messages.success);
      form.resetFields();
    },
    onError: (err) => void notify('error', enquiryFailureMessage(err)),
  });
  const rule = (name: keyof EnquiryInput) => [schemaRule(enquiryRequestSchema, name)];

  return (
    <div className={styles.page}>
      <section className={styles.intro}>
        <h1>{c.title}</h1>
        <p>{c.subtitle}</p>
        <ul>
          {c.highlights.map((h) => (
            <li key={h}>
              <CheckCircleFilled /> {h}
            </li>
          ))}
        </ul>
      </section>
      <Card
        className={styles.card}
        title={
          <>
            <CustomerServiceOutlined /> {c.title}
          </>
        }
      >
        {products.isError ? (
          <Alert type="error" showIcon title={c.productsFailed} className={styles.alert} />
        ) : null}
        <Form<EnquiryInput>
          form={form}
          layout="vertical"
          size="large"
          initialValues={{ quantity: ENQUIRY_QUANTITY_DEFAULT }}
          onFinish={(values) => mutation.mutate(enquiryRequestSchema.parse(values))}
          data-testid="enquiry-form"
        >
          <div className={styles.row}>
            <Form.Item name="name" label={c.name} required rules={rule('name')}>
              <Input placeholder={c.namePlaceholder} maxLength={50} data-testid="enquiry-name" />
            </Form.Item>
            <Form.Item name="phone" label={c.phone} required rules={rule('phone')}>
              <Input placeholder={c.phonePlaceholder} maxLength={22} data-testid="enquiry-phone" />
            </Form.Item>
          </div>
          <Form.Item name="company" label={c.company}>
            <Input placeholder={c.companyPlaceholder} maxLength={100} />
          </Form.Item>
          <div className={styles.row}>
            <Form.Item name="product" label={c.product} required rules={rule('product')}>
              <Select
                placeholder={c.productPlaceholder}
                loading={products.isPending}
                options={(products.data ?? []).map((p) => ({ value: p, label: p }))}
                data-testid="enquiry-product"
              />
            </Form.Item>
            <Form.Item name="quantity" label={c.quantity} required rules={rule('quantity')}>
              {/* No min/max/precision: antd would clamp or round silently; the rule says what is wrong. */}
              <InputNumber className={styles.quantity} step={1} data-testid="enquiry-quantity" />
            </Form.Item>
          </div>
          <Form.Item name="question" label={c.question}>
            <Input.TextArea placeholder={c.questionPlaceholder} rows={4} maxLength={1000} showCount />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={mutation.isPending}
            data-testid="enquiry-submit"
          >
            {c.submit}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
